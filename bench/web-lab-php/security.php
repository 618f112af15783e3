<?php
require 'common.php';
require_login();
if (isset($_POST['seclev_submit']) && check_token($_POST['user_token'] ?? '')) {
  $level = $_POST['security'] === 'low' ? 'low' : 'impossible';
  setcookie('security', $level, 0, '/');
  $_COOKIE['security'] = $level;
}
$options = '';
foreach (['low', 'impossible'] as $l) $options .= "<option value=\"$l\"" . (level() === $l ? ' selected="selected"' : '') . ">$l</option>";
page('Security', '<form method="POST"><select name="security">' . $options . '</select><input type="submit" value="Submit" name="seclev_submit">' . token_field() . '</form>');

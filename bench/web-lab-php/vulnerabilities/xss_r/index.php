<?php
require '../../common.php';
require_login();
$html = '';
if (isset($_GET['name']) && $_GET['name'] !== '') {
  $html = level() === 'low' ? '<pre>Hello ' . $_GET['name'] . '</pre>' : '<pre>Hello ' . htmlspecialchars($_GET['name']) . '</pre>';
}
page('XSS (Reflected)', '<form name="XSS" action="#" method="GET"><p>What\'s your name?<input type="text" name="name"><input type="submit" value="Submit"></p></form>' . $html);

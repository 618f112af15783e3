<?php
require '../../common.php';
require_login();
$html = '';
if (isset($_POST['Submit'])) {
  $target = $_REQUEST['ip'];
  if (level() === 'low') {
    $html = '<pre>' . shell_exec('ping -c 1 -W 1 ' . $target) . '</pre>';
  } elseif (check_token($_POST['user_token'] ?? '')) {
    $octet = explode('.', stripslashes($target));
    if (count($octet) === 4 && array_reduce($octet, fn($ok, $o) => $ok && is_numeric($o), true)) {
      $html = '<pre>' . shell_exec('ping -c 1 -W 1 ' . escapeshellarg(implode('.', $octet))) . '</pre>';
    } else $html = '<pre>ERROR: You have entered an invalid IP.</pre>';
  }
}
page('Command Injection', '<form name="ping" action="#" method="post"><p>Enter an IP address:<input type="text" name="ip" size="30"><input type="submit" name="Submit" value="Submit"></p>' . (level() === 'low' ? '' : token_field()) . '</form>' . $html);

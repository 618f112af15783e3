<?php
require '../../common.php';
require_login();
$html = '';
if (isset($_GET['Change'])) {
  $new = $_GET['password_new']; $conf = $_GET['password_conf'];
  $ok = $new === $conf;
  if (level() === 'impossible') {
    $ok = $ok && check_token($_GET['user_token'] ?? '');
    $stmt = mysqli_prepare($db, 'SELECT 1 FROM users WHERE user = ? AND password = ?');
    $cur = md5($_GET['password_current'] ?? ''); mysqli_stmt_bind_param($stmt, 'ss', $_SESSION['user'], $cur);
    mysqli_stmt_execute($stmt); $ok = $ok && mysqli_stmt_fetch($stmt); mysqli_stmt_close($stmt);
  }
  if ($ok) {
    $stmt = mysqli_prepare($db, 'UPDATE users SET password = ? WHERE user = ?');
    $hash = md5($new); mysqli_stmt_bind_param($stmt, 'ss', $hash, $_SESSION['user']); mysqli_stmt_execute($stmt);
    $html = '<pre>Password Changed.</pre>';
  } else $html = '<pre>Passwords did not match.</pre>';
}
$current = level() === 'impossible' ? 'Current password:<input type="password" name="password_current">' : '';
page('CSRF', '<form action="#" method="GET">' . $current . 'New password:<input type="password" name="password_new">Confirm:<input type="password" name="password_conf">'
  . '<input type="submit" value="Change" name="Change">' . (level() === 'low' ? '' : token_field()) . '</form>' . $html);

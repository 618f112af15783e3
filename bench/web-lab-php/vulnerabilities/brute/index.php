<?php
// As DVWA's brute-force page: at `impossible`, a failed log-in sleeps 2-4 s (a slow target).
require '../../common.php';
require_login();
$html = '';
if (level() === 'low' && isset($_GET['Login'])) {
  $user = $_GET['username']; $pass = md5($_GET['password']);
  $result = mysqli_query($db, "SELECT * FROM users WHERE user = '$user' AND password = '$pass';") or die('<pre>' . mysqli_error($db) . '</pre>');
  $html = $result && mysqli_num_rows($result) === 1 ? '<p>Welcome to the password protected area.</p>' : '<pre>Username and/or password incorrect.</pre>';
} elseif (level() === 'impossible' && isset($_POST['Login'])) {
  if (check_token($_POST['user_token'] ?? '')) {
    $stmt = mysqli_prepare($db, 'SELECT 1 FROM users WHERE user = ? AND password = ?');
    $hash = md5($_POST['password'] ?? ''); mysqli_stmt_bind_param($stmt, 'ss', $_POST['username'], $hash); mysqli_stmt_execute($stmt);
    if (mysqli_stmt_fetch($stmt)) $html = '<p>Welcome to the password protected area.</p>';
    else { sleep(rand(2, 4)); $html = '<pre>Username and/or password incorrect.</pre>'; }
  }
}
$method = level() === 'low' ? 'GET' : 'POST';
page('Brute Force', "<form action=\"#\" method=\"$method\">Username:<input type=\"text\" name=\"username\">Password:<input type=\"password\" AUTOCOMPLETE=\"off\" name=\"password\">"
  . '<input type="submit" value="Login" name="Login">' . (level() === 'low' ? '' : token_field()) . '</form>' . $html);

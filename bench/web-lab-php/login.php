<?php
require 'common.php';
if (isset($_POST['Login'])) {
  if (!check_token($_POST['user_token'] ?? '')) { header('Location: /login.php'); exit; }
  $stmt = mysqli_prepare($db, 'SELECT user FROM users WHERE user = ? AND password = ?');
  $hash = md5($_POST['password'] ?? '');
  mysqli_stmt_bind_param($stmt, 'ss', $_POST['username'], $hash);
  mysqli_stmt_execute($stmt);
  if (mysqli_stmt_fetch($stmt)) {
    session_regenerate_id(true);
    $_SESSION['user'] = $_POST['username'];
    header('Location: /index.php');
    exit;
  }
  header('Location: /login.php');
  exit;
}
echo '<!doctype html><html><body><form action="login.php" method="post"><input type="text" name="username"><input type="password" name="password">'
  . '<input type="submit" value="Login" name="Login">' . token_field() . '</form></body></html>';

<?php
require '../../common.php';
require_login();
if (isset($_POST['btnSign'])) {
  $message = trim($_POST['mtxMessage']); $name = trim($_POST['txtName']);
  if (level() === 'impossible') {
    if (check_token($_POST['user_token'] ?? '')) {
      $message = htmlspecialchars($message); $name = htmlspecialchars($name);
      $stmt = mysqli_prepare($db, 'INSERT INTO guestbook (comment, name) VALUES (?, ?)');
      mysqli_stmt_bind_param($stmt, 'ss', $message, $name); mysqli_stmt_execute($stmt);
    }
  } else {
    $message = mysqli_real_escape_string($db, $message); $name = mysqli_real_escape_string($db, $name);
    mysqli_query($db, "INSERT INTO guestbook (comment, name) VALUES ('$message', '$name');");
  }
}
$entries = '';
$result = mysqli_query($db, 'SELECT name, comment FROM guestbook ORDER BY comment_id DESC LIMIT 50');
while ($row = mysqli_fetch_assoc($result)) $entries .= "<div id=\"guestbook_comments\">Name: {$row['name']}<br />Message: {$row['comment']}<br /></div>";
page('XSS (Stored)', '<form method="post" name="guestform"><input name="txtName" type="text" size="30" maxlength="10"><textarea name="mtxMessage" cols="50" rows="3" maxlength="50"></textarea>'
  . '<input name="btnSign" type="submit" value="Sign Guestbook"><input name="btnClear" type="submit" value="Clear Guestbook">' . (level() === 'low' ? '' : token_field()) . '</form>' . $entries);

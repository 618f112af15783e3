<?php
require '../../common.php';
require_login();
$html = '';
if (isset($_REQUEST['Submit'])) {
  $id = $_REQUEST['id'];
  if (level() === 'low') {
    $result = mysqli_query($db, "SELECT first_name, last_name FROM users WHERE user_id = '$id';") or die('<pre>' . mysqli_error($db) . '</pre>');
    while ($row = mysqli_fetch_assoc($result)) $html .= "<pre>ID: {$id}<br />First name: {$row['first_name']}<br />Surname: {$row['last_name']}</pre>";
  } else {
    if (is_numeric($id) && check_token($_REQUEST['user_token'] ?? '')) {
      $stmt = mysqli_prepare($db, 'SELECT first_name, last_name FROM users WHERE user_id = ? LIMIT 1');
      $n = intval($id); mysqli_stmt_bind_param($stmt, 'i', $n); mysqli_stmt_execute($stmt);
      mysqli_stmt_bind_result($stmt, $f, $l);
      if (mysqli_stmt_fetch($stmt)) $html .= '<pre>ID: ' . htmlspecialchars($id) . '<br />First name: ' . htmlspecialchars($f) . '<br />Surname: ' . htmlspecialchars($l) . '</pre>';
    }
  }
}
page('SQL Injection', '<form action="#" method="GET"><input type="text" size="15" name="id"><input type="submit" name="Submit" value="Submit">' . (level() === 'low' ? '' : token_field()) . '</form>' . $html);

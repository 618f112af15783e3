<?php
require '../../common.php';
require_login();
$html = '';
if (isset($_GET['Submit'])) {
  $id = $_GET['id'];
  $exists = false;
  if (level() === 'low') {
    $result = @mysqli_query($db, "SELECT first_name, last_name FROM users WHERE user_id = '$id';");
    $exists = $result && mysqli_num_rows($result) > 0;
  } elseif (is_numeric($id) && check_token($_GET['user_token'] ?? '')) {
    $stmt = mysqli_prepare($db, 'SELECT first_name FROM users WHERE user_id = ? LIMIT 1');
    $n = intval($id); mysqli_stmt_bind_param($stmt, 'i', $n); mysqli_stmt_execute($stmt); mysqli_stmt_store_result($stmt);
    $exists = mysqli_stmt_num_rows($stmt) === 1;
  }
  if ($exists) $html = '<pre>User ID exists in the database.</pre>';
  else { http_response_code(404); $html = '<pre>User ID is MISSING from the database.</pre>'; }
}
page('SQL Injection (Blind)', '<form action="#" method="GET"><input type="text" size="15" name="id"><input type="submit" name="Submit" value="Submit">' . (level() === 'low' ? '' : token_field()) . '</form>' . $html);

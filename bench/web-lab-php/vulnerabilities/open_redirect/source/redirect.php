<?php
require '../../../common.php';
require_login();
if (array_key_exists('redirect', $_GET) && $_GET['redirect'] !== '') {
  if (level() === 'low') { header('location: ' . $_GET['redirect']); exit; }
  $target = ['info.php?id=1', 'info.php?id=2'];
  if (in_array($_GET['redirect'], $target, true)) { header('location: ' . $_GET['redirect']); exit; }
  http_response_code(500); echo '<p>Unknown redirect target.</p>'; exit;
}
http_response_code(500); echo '<p>Missing redirect target.</p>';

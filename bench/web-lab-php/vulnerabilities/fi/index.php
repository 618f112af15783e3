<?php
require '../../common.php';
require_login();
$file = $_GET['page'] ?? 'include.php';
ob_start();
if (level() === 'low') { include($file); }
elseif (in_array($file, ['include.php', 'file1.php', 'file2.php'], true)) { include($file); }
else { echo 'ERROR: File not found!'; }
$out = ob_get_clean();
page('File Inclusion', '<a href="?page=file1.php">file1.php</a> <a href="?page=file2.php">file2.php</a><div>' . $out . '</div>');

<?php
require '../../../common.php';
require_login();
page('Quote', '<p>Quote ' . intval($_GET['id'] ?? 1) . '</p><a href="../">Back</a>');

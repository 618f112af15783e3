<?php
require '../../common.php';
require_login();
page('Open Redirect', '<ul><li><a href="source/info.php?id=1">Quote 1</a></li><li><a href="source/redirect.php?redirect=info.php?id=2">Quote 2</a></li></ul>');

<?php
require 'common.php';
require_login();
page('Welcome', '<p>Welcome to the lab.</p>');

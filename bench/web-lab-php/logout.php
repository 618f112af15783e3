<?php
require 'common.php';
session_destroy();
header('Location: /login.php');

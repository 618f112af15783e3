<?php
// A small DVWA-like lab for the web testing benchmark (bench/web-vs-wapiti.ts): a form log-in with an
// anti-CSRF token, a security level per session cookie (low: vulnerable, impossible: fixed), MariaDB.
mysqli_report(MYSQLI_REPORT_OFF);
session_start();
$db = mysqli_connect('127.0.0.1', 'root', '', getenv('LAB_DB') ?: 'scanward_bench');
function level() { return ($_COOKIE['security'] ?? (getenv('LAB_LEVEL') ?: 'impossible')) === 'low' ? 'low' : 'impossible'; }
function token_field() {
  $_SESSION['token'] = bin2hex(random_bytes(16));
  return '<input type="hidden" name="user_token" value="' . $_SESSION['token'] . '">';
}
function check_token($given) {
  $ok = isset($_SESSION['token']) && is_string($given) && hash_equals($_SESSION['token'], $given);
  unset($_SESSION['token']);
  return $ok;
}
function require_login() {
  if (empty($_SESSION['user'])) { header('Location: /login.php'); exit; }
}
function page($title, $body) {
  echo "<!doctype html><html><head><title>$title</title></head><body><div id=\"menu\">"
    . '<a href="/index.php">Home</a> <a href="/vulnerabilities/brute/">Brute Force</a> <a href="/vulnerabilities/sqli/">SQL Injection</a> <a href="/vulnerabilities/sqli_blind/">SQL Injection (Blind)</a>'
    . ' <a href="/vulnerabilities/xss_r/">XSS (Reflected)</a> <a href="/vulnerabilities/xss_s/">XSS (Stored)</a> <a href="/vulnerabilities/exec/">Command Injection</a>'
    . ' <a href="/vulnerabilities/fi/?page=include.php">File Inclusion</a> <a href="/vulnerabilities/open_redirect/">Open Redirect</a> <a href="/vulnerabilities/csrf/">CSRF</a>'
    . ' <a href="/security.php">Security</a> <a href="/logout.php">Logout</a></div>'
    . "<h1>$title</h1>$body<p>Security level: " . level() . "</p></body></html>";
}

DROP DATABASE IF EXISTS scanward_bench;
CREATE DATABASE scanward_bench;
USE scanward_bench;
CREATE TABLE users (user_id INT PRIMARY KEY, first_name VARCHAR(15), last_name VARCHAR(15), user VARCHAR(15), password VARCHAR(32));
INSERT INTO users VALUES (1,'admin','admin','admin',MD5('password')),(2,'Gordon','Brown','gordonb',MD5('abc123')),(3,'Hack','Me','1337',MD5('charley'));
CREATE TABLE guestbook (comment_id SMALLINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY, comment VARCHAR(300), name VARCHAR(100));
INSERT INTO guestbook (comment, name) VALUES ('This is a test comment.','test');

CREATE DATABASE IF NOT EXISTS sbtest;
CREATE USER IF NOT EXISTS 'drivebench'@'%' IDENTIFIED BY 'drivebench';
GRANT ALL PRIVILEGES ON *.* TO 'drivebench'@'%' WITH GRANT OPTION;
CREATE USER IF NOT EXISTS 'drivebench'@'localhost' IDENTIFIED BY 'drivebench';
GRANT ALL PRIVILEGES ON *.* TO 'drivebench'@'localhost' WITH GRANT OPTION;
DROP USER IF EXISTS ''@'localhost';
DROP USER IF EXISTS ''@'drivebench-guest';

# tests/tsql/: the T-SQL grammar check of the mssql dialect's SQL (check.sh);
# no server, VM or root (make check); the parser is installed from the npm
# registry into tests/tsql/node_modules on first use.
CHECK_TARGETS += tests/tsql/check.sh
CLEAN_FILES  += tests/tsql/node_modules

# tests/tsql/: the T-SQL grammar check of the mssql dialect's SQL (check.sh);
# the parser is installed from the npm registry into tests/tsql/node_modules.
TEST_TARGETS += tests/tsql/check.sh
CLEAN_FILES  += tests/tsql/node_modules

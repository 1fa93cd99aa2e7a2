# Empty dependencies file for test_contract.
# This may be replaced when dependencies are built.

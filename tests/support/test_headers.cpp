// Empty: the program test_headers exists for the headers it precompiles
// (tests/CMakeLists.txt), which every test program reuses.

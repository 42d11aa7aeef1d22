// libsystemc.so references sc_main; GoogleTest / Google Benchmark programs have their own main()
// and call the SystemC kernel directly, so this stub is never run.
extern "C" int sc_main(int, char**) { return 0; }

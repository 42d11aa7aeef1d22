// libsystemc.so references sc_main. socsim's programs (the CLI, GoogleTest and Google Benchmark
// programs) have their own main() and drive the SystemC kernel directly, so this is never run.
extern "C" int sc_main(int, char**) { return 0; }

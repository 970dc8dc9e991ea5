// interpreter_lock.hpp: the interpreter's lock given up while C++ works, and
// taken back in the one way that is safe while the interpreter ends.
//
// At its exit Python ends daemon threads as they next take the lock (the
// thread is unwound from inside the taking). A thread must therefore never
// take the lock anew through PyGILState_Ensure, which, once the interpreter
// is torn down, reads its freed state before it gets to end the thread: it
// takes the lock back with the thread state it gave it up with, and when the
// interpreter ends it there, it waits for the process's exit instead of
// unwinding through frames that hold Python objects it may not touch.
//
//   InterpreterLock lock;
//   lock.release();
//   ... C++ only ...
//   lock.take_back();   // never returns when the interpreter is ending
#pragma once

#include <Python.h>
#include <cxxabi.h>
#include <unistd.h>

#include <utility>

namespace gcsim::python {

class InterpreterLock {
 public:
  InterpreterLock() = default;
  InterpreterLock(const InterpreterLock&) = delete;
  InterpreterLock& operator=(const InterpreterLock&) = delete;

  /// Gives the lock up (the calling thread holds it); again, nothing.
  void release() {
    if (saved_ == nullptr) saved_ = PyEval_SaveThread();
  }

  /// Takes the lock back if it was given up.
  void take_back() {
    if (saved_ == nullptr) return;
    PyThreadState* const state = std::exchange(saved_, nullptr);
    try {
      PyEval_RestoreThread(state);
    } catch (abi::__forced_unwind&) {
      wait_for_the_process_end();
    }
  }

  /// For a thread the interpreter ends (caught abi::__forced_unwind): it
  /// holds nothing, and leaves no frame to unwind.
  [[noreturn]] static void wait_for_the_process_end() {
    for (;;) ::pause();
  }

 private:
  PyThreadState* saved_ = nullptr;
};

}  // namespace gcsim::python

// knightgym._knightgym.OutputLock: the C++ commands' one-writer-per-output lock
// (util/output_lock.h) for the outputs Python writes, and OutputRefused raised as the
// OSError of its number (BlockingIOError for another writer, PermissionError, ...).
#include <pybind11/pybind11.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "bindings/bindings.h"
#include "bindings/serialised.h"
#include "util/output_lock.h"

namespace py = pybind11;

namespace knightgym::python {
namespace {

// Held until release() or the end of a `with` block; released on collection otherwise.
struct HeldOutput {
  std::optional<OutputLock> lock;
  std::string path;
  Serialised serialised;

  void release() {
    Serialised::Guard guard(serialised, "an OutputLock");
    lock.reset();
  }
};

std::unique_ptr<HeldOutput> held(OutputLock lock) {
  auto out = std::make_unique<HeldOutput>();
  out->path = lock.path();
  out->lock.emplace(std::move(lock));
  return out;
}

}  // namespace

void init_output_lock(py::module_& m) {
  py::register_exception_translator([](std::exception_ptr error) {
    try {
      if (error) std::rethrow_exception(error);
    } catch (const OutputRefused& refused) {
      py::object exception =
          py::reinterpret_borrow<py::object>(PyExc_OSError)(refused.error_number(), refused.what());
      PyErr_SetObject(py::type::handle_of(exception).ptr(), exception.ptr());
    }
  });
  py::class_<HeldOutput>(m, "OutputLock",
                         "One writer per output: the lock a command holds on the folder or "
                         "file it writes, released by the kernel if the process dies.")
      .def_static(
          "folder", [](const std::string& dir) { return held(OutputLock::folder(dir)); },
          py::arg("dir"),
          "Locks the folder `dir`, making it if needed. Raises OSError naming it: "
          "BlockingIOError while another writer (any process, this one included) holds it.")
      .def_static(
          "file", [](const std::string& path) { return held(OutputLock::file(path)); },
          py::arg("path"), "Locks the file `path` (made empty if missing), as folder() does.")
      .def_property_readonly("path", [](const HeldOutput& output) { return output.path; })
      .def("release", &HeldOutput::release,
           "Releases the lock (removing the output if it made it and it is still empty).")
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__", [](HeldOutput& output, const py::args&) { output.release(); });
}

}  // namespace knightgym::python

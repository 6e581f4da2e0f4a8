"""`import ply` from the repository root (where the `ply` binary sits):
loads the package in python/ply as the module ply itself, so that
`python3 -c "import ply; ..."` works here after `make` without installing
anything. Elsewhere, put python/ on PYTHONPATH (or install the package)."""
import importlib.util as _u
import os as _os
import sys as _sys

_dir = _os.path.join(_os.path.dirname(_os.path.abspath(__file__)),
                     "python", "ply")
_spec = _u.spec_from_file_location(
    __name__, _os.path.join(_dir, "__init__.py"),
    submodule_search_locations=[_dir])
_mod = _u.module_from_spec(_spec)
_sys.modules[__name__] = _mod
_spec.loader.exec_module(_mod)

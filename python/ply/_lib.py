"""The C library (libply.so.1) through ctypes: finding it, and the
prototypes of include/ply.h. Nothing here is public."""

import ctypes
import ctypes.util
import os

from ctypes import (CFUNCTYPE, POINTER, Structure, c_char_p, c_double,
                    c_int, c_int64, c_size_t, c_uint, c_uint64, c_void_p)

API_VERSION = 1
SONAME = "libply.so.%d" % API_VERSION


class Error(Structure):
    _fields_ = [("code", c_int), ("message", ctypes.c_char * 256)]


class SearchInfo(Structure):
    _fields_ = [("best", c_uint64), ("value", c_int), ("proven", c_int),
                ("depth", c_int), ("seldepth", c_int), ("nodes", c_uint64),
                ("playouts", c_uint64), ("seconds", c_double),
                ("pv_len", c_int), ("pv", c_uint64 * 64)]


INFO_FN = CFUNCTYPE(None, c_void_p, c_void_p, POINTER(SearchInfo))
DONE_FN = CFUNCTYPE(None, c_void_p, c_void_p, c_uint64, POINTER(SearchInfo))


class Limits(Structure):
    _fields_ = [("time_ms", c_int64), ("nodes", c_uint64), ("depth", c_int),
                ("on_info", INFO_FN), ("user", c_void_p)]


class Clock(Structure):
    _fields_ = [("left_ms", c_int64), ("inc_ms", c_int64),
                ("byoyomi_ms", c_int64), ("moves_to_go", c_int),
                ("margin_ms", c_int64)]


def _candidates(pkgdir):
    env = os.environ.get("PLY_LIBRARY")
    if env:
        # Given explicitly: that file and nothing else.
        return [env]
    root = os.path.dirname(os.path.dirname(pkgdir))
    out = [os.path.join(pkgdir, SONAME), os.path.join(pkgdir, "libply.so"),
           os.path.join(root, "build", "release", "lib", SONAME)]
    found = ctypes.util.find_library("ply")
    out.append(found or SONAME)
    return out


def load(pkgdir):
    """The library next to the package, through PLY_LIBRARY, in the
    repository's build/release/lib, or the system's."""
    tried = []
    for path in _candidates(pkgdir):
        if os.sep in path and not os.path.exists(path):
            tried.append(path + " (missing)")
            continue
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
            continue
        try:
            _declare(lib)
        except AttributeError as e:
            tried.append("%s (%s)" % (path, e))
            continue
        if lib.ply_api_version() != API_VERSION:
            tried.append("%s (ABI %d, want %d)" % (
                path, lib.ply_api_version(), API_VERSION))
            continue
        return lib
    raise ImportError("ply: cannot load the C library libply; build it with "
                      "`make lib` or set PLY_LIBRARY. Tried: " +
                      "; ".join(tried))


# name: (restype, argtypes)
_E = POINTER(Error)
_PROTOS = {
    "ply_error_name": (c_char_p, [c_int]),
    "ply_version": (c_char_p, []),
    "ply_api_version": (c_int, []),
    "ply_free": (None, [c_void_p]),
    "ply_game_count": (c_int, []),
    "ply_game_at": (c_void_p, [c_int]),
    "ply_game_find": (c_void_p, [c_char_p, _E]),
    "ply_game_name": (c_char_p, [c_void_p]),
    "ply_game_title": (c_char_p, [c_void_p]),
    "ply_game_num_players": (c_int, [c_void_p]),
    "ply_game_player_name": (c_char_p, [c_void_p, c_int]),
    "ply_game_flags": (c_uint, [c_void_p]),
    "ply_game_max_moves": (c_int, [c_void_p]),
    "ply_game_max_length": (c_int, [c_void_p]),
    "ply_game_notation": (c_char_p, [c_void_p]),
    "ply_game_rules": (c_char_p, [c_void_p]),
    "ply_game_default_bot": (c_char_p, [c_void_p]),
    "ply_game_option_count": (c_int, [c_void_p]),
    "ply_game_option_key": (c_char_p, [c_void_p, c_int]),
    "ply_game_option_describe": (c_int, [c_void_p, c_int, c_char_p, c_size_t,
                                         _E]),
    "ply_game_format_count": (c_int, [c_void_p]),
    "ply_game_format_name": (c_char_p, [c_void_p, c_int]),
    "ply_bot_type_count": (c_int, []),
    "ply_bot_type_at": (c_void_p, [c_int]),
    "ply_bot_type_find": (c_void_p, [c_char_p, _E]),
    "ply_bot_type_name": (c_char_p, [c_void_p]),
    "ply_bot_type_help": (c_char_p, [c_void_p]),
    "ply_bot_type_option_count": (c_int, [c_void_p]),
    "ply_bot_type_option_key": (c_char_p, [c_void_p, c_int]),
    "ply_bot_type_option_describe": (c_int, [c_void_p, c_int, c_char_p,
                                             c_size_t, _E]),
    "ply_state_new": (c_void_p, [c_void_p, c_char_p, c_char_p, c_uint64, _E]),
    "ply_state_clone": (c_void_p, [c_void_p, _E]),
    "ply_state_free": (None, [c_void_p]),
    "ply_state_game": (c_void_p, [c_void_p]),
    "ply_state_current_player": (c_int, [c_void_p]),
    "ply_state_num_players": (c_int, [c_void_p]),
    "ply_state_player_name": (c_char_p, [c_void_p, c_int]),
    "ply_state_is_terminal": (c_int, [c_void_p]),
    "ply_state_legal_moves": (c_int, [c_void_p, POINTER(c_uint64), c_int]),
    "ply_state_chance_outcomes": (c_int, [c_void_p, POINTER(c_uint64),
                                          POINTER(c_double), c_int]),
    "ply_state_move_to_text": (c_int, [c_void_p, c_uint64, c_char_p,
                                       c_size_t, _E]),
    "ply_state_parse_move": (c_int, [c_void_p, c_char_p, POINTER(c_uint64),
                                     _E]),
    "ply_state_apply": (c_int, [c_void_p, c_uint64, _E]),
    "ply_state_apply_text": (c_int, [c_void_p, c_char_p, _E]),
    "ply_state_undo": (c_int, [c_void_p, _E]),
    "ply_state_history_length": (c_int, [c_void_p]),
    "ply_state_history_move": (c_uint64, [c_void_p, c_int]),
    "ply_state_returns": (c_int, [c_void_p, POINTER(c_double), c_int]),
    "ply_state_to_text": (c_int, [c_void_p, c_char_p, c_size_t, _E]),
    "ply_state_render": (c_int, [c_void_p, c_char_p, c_size_t, _E]),
    "ply_state_hash": (c_uint64, [c_void_p]),
    "ply_state_observation": (c_void_p, [c_void_p, c_int, _E]),
    "ply_state_determinize": (c_void_p, [c_void_p, c_int, c_uint64, _E]),
    "ply_bot_new": (c_void_p, [c_void_p, c_char_p, c_uint64, _E]),
    "ply_bot_free": (None, [c_void_p]),
    "ply_bot_spec": (c_char_p, [c_void_p]),
    "ply_bot_choose": (c_int, [c_void_p, c_void_p, POINTER(Limits),
                               POINTER(c_uint64), POINTER(SearchInfo), _E]),
    "ply_bot_choose_clock": (c_int, [c_void_p, c_void_p, POINTER(Clock),
                                     POINTER(Limits), POINTER(c_uint64),
                                     POINTER(SearchInfo), _E]),
    "ply_time_budget": (c_int64, [c_void_p, POINTER(Clock), POINTER(c_int),
                                  _E]),
    "ply_bot_inform": (c_int, [c_void_p, c_void_p, c_uint64, _E]),
    "ply_bot_new_game": (None, [c_void_p]),
    "ply_bot_stop": (None, [c_void_p]),
    "ply_session_new": (c_void_p, [c_void_p, c_char_p, c_char_p, c_uint64,
                                   _E]),
    "ply_session_free": (None, [c_void_p]),
    "ply_session_set_position": (c_int, [c_void_p, c_char_p, c_char_p, _E]),
    "ply_session_play": (c_int, [c_void_p, c_char_p, _E]),
    "ply_session_undo": (c_int, [c_void_p, c_int]),
    "ply_session_state": (c_void_p, [c_void_p, _E]),
    "ply_session_set_bot": (c_int, [c_void_p, c_char_p, _E]),
    "ply_session_set_bot_option": (c_int, [c_void_p, c_char_p, c_char_p,
                                           _E]),
    "ply_session_on_info": (c_int, [c_void_p, INFO_FN, DONE_FN, c_void_p,
                                    _E]),
    "ply_session_go": (c_int, [c_void_p, POINTER(Limits), _E]),
    "ply_session_go_clock": (c_int, [c_void_p, POINTER(Clock),
                                     POINTER(Limits), _E]),
    "ply_session_stop": (None, [c_void_p]),
    "ply_session_wait": (c_int, [c_void_p, POINTER(c_uint64),
                                 POINTER(SearchInfo), _E]),
    "ply_match_new": (c_void_p, [c_void_p, c_char_p, POINTER(c_char_p),
                                 c_int, c_uint64, c_uint64, _E]),
    "ply_match_free": (None, [c_void_p]),
    "ply_match_set_time": (c_int, [c_void_p, c_char_p, _E]),
    "ply_match_set_openings": (c_int, [c_void_p, c_int, _E]),
    "ply_match_total": (c_uint64, [c_void_p]),
    "ply_match_play": (c_void_p, [c_void_p, c_uint64, _E]),
    "ply_match_count": (c_int, [c_void_p, c_void_p, _E]),
    "ply_match_score": (c_int, [c_void_p, c_int, POINTER(c_uint64),
                                POINTER(c_uint64), POINTER(c_uint64), _E]),
    "ply_record_free": (None, [c_void_p]),
    "ply_record_index": (c_uint64, [c_void_p]),
    "ply_record_setup": (c_char_p, [c_void_p]),
    "ply_record_num_moves": (c_int, [c_void_p]),
    "ply_record_num_seats": (c_int, [c_void_p]),
    "ply_record_move": (c_char_p, [c_void_p, c_int]),
    "ply_record_bot": (c_int, [c_void_p, c_int]),
    "ply_record_result": (c_double, [c_void_p, c_int]),
    "ply_record_reason": (c_char_p, [c_void_p]),
    "ply_record_winner": (c_int, [c_void_p]),
    "ply_record_write": (c_void_p, [c_void_p, c_char_p, _E]),
}


def _declare(lib):
    for name, (res, args) in _PROTOS.items():
        f = getattr(lib, name)
        f.restype = res
        f.argtypes = args

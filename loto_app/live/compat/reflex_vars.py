"""Reflex 0.10, for the components and pages (requirements.lock: reflex 0.10.1): a var made of a
raw JavaScript expression, which the documented API does not offer (`rx.Var`'s fields are
underscore-named: `_js_expr`, `_var_type`, `_var_data`; a var's own imports and hooks are read
with `_get_all_var_data`), and the frontend's names for the backend's origin (its state.js
`getBackendURL`, its env.json's `UPLOAD`). Imported through `loto_app.live.compat`.

Documented, and used directly elsewhere: `rx.Var.create`, `rx.ImportVar`, components'
`add_imports` and `add_hooks`.
"""

from __future__ import annotations

import reflex as rx
from reflex.vars import VarData
from reflex_base.constants import Dirs

__all__ = ["BACKEND_ORIGIN", "backend_url"]

#: The backend's origin as a frontend expression: the one Reflex's own upload links use (its
#: state.js looks for this text), the upload endpoint's URL in env.json made absolute.
BACKEND_ORIGIN = "getBackendURL(env.UPLOAD)"

#: What `BACKEND_ORIGIN` needs imported on the page (state.js's export, env.json's default).
_BACKEND_IMPORTS = VarData(
    imports={
        f"$/{Dirs.STATE_PATH}": "getBackendURL",
        "$/env.json": rx.ImportVar(tag="env", is_default=True),
    }
)


def backend_url(path: rx.Var[str] | str) -> rx.Var[str]:
    """The absolute address, on the backend's origin, of a path the backend serves (a var, or a
    fixed path), as Reflex makes its uploads' addresses ("" stays ""): the frontend and the
    backend share one origin in production, not in the browser tests. The path var's own
    imports and hooks (a state's var) go with it."""
    path_var = rx.Var.create(path)
    return rx.Var(
        _js_expr=f"(({path_var}) ? new URL(({path_var}), {BACKEND_ORIGIN}).href : '')",
        _var_type=str,
        _var_data=VarData.merge(_BACKEND_IMPORTS, path_var._get_all_var_data()),
    )

"""Serve the app again from a frontend that is already built: what `reflex run --env prod`
does once its build is done (REFLEX_SKIP_COMPILE, the compiled frontend mounted on the
backend's port), without compiling the app and running the bundler a second time.

A restart after a crash serves the very same build, so the crash tests and benchmarks restart
the server this way (`serving.spawn(..., rebuild=False)`): a rebuild costs 20-60 s of CPU on a
2-core machine and tests nothing a restart is about. The first start of a server always goes
through `reflex run --env prod` (`serving.spawn`'s default).

    scripts/with-env.sh .venv/bin/python bench/serve_built.py HOST PORT

REFLEX_WEB_WORKDIR (the built frontend), LOTO_DB_URL, REFLEX_REDIS_URL and GRANIAN_WORKERS come
from the environment, as for `reflex run`.
"""

from __future__ import annotations

import sys
from pathlib import Path


def main(argv: list[str]) -> None:
    """Serve on HOST PORT until killed."""
    host, port = argv[0], int(argv[1])
    from reflex.istate.manager import reset_disk_state_manager
    from reflex.utils import exec, prerequisites
    from reflex_base import constants
    from reflex_base.config import get_config, reload_config
    from reflex_base.environment import environment

    web = prerequisites.get_web_dir()
    if not (Path(web) / constants.Dirs.STATIC).is_dir():
        raise SystemExit(f"serve_built: no built frontend in {web} (run `reflex run` once)")
    environment.REFLEX_ENV_MODE.set(constants.Env.PROD)
    prerequisites.assert_in_reflex_dir()
    reset_disk_state_manager()  # (as `reflex run` does at every start)
    config = get_config()
    config._set_persistent(frontend_port=port, backend_port=port, backend_host=host)
    reload_config()
    environment.REFLEX_SKIP_COMPILE.set(True)
    exec.run_backend_prod(host, port, get_config().loglevel.subprocess_level(), True)


if __name__ == "__main__":
    main(sys.argv[1:])

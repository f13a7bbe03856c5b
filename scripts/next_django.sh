#!/usr/bin/env bash
# The figures' tests and the compiled statements against the next Django minor release, so
# that an upgrade which breaks what core/compiled.py builds on Django's compiler fails here
# first. A virtual environment of its own (.venv-next): the locked packages, but Django
# taken from NEXT_DJANGO (default "django>=6.0,<6.1", which needs Python 3.12 or newer:
# PYTHON_NEXT names it, else the first python3.12+ found on PATH or under ~/.pyenv).
set -euo pipefail
cd "$(dirname "$0")/.."
spec="${NEXT_DJANGO:-django>=6.0,<6.1}"

py="${PYTHON_NEXT:-}"
if [ -z "$py" ]; then
  for candidate in python3.13 python3.12 "$HOME"/.pyenv/versions/3.1[2-9]*/bin/python3; do
    # A name on PATH may be a version manager's shim for a version not installed: run it.
    if command -v "$candidate" >/dev/null 2>&1 \
      && "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then
      py="$(command -v "$candidate")"
      break
    fi
  done
fi
if [ -z "$py" ]; then
  echo "next Django: no Python 3.12 or newer found; set PYTHON_NEXT to one" >&2
  exit 1
fi

.venv/bin/uv venv -q --allow-existing -p "$py" .venv-next
.venv/bin/uv export --frozen --no-hashes --no-emit-project --quiet \
  | grep -v -E '^(django|openapi-python-client|ruff|locust|playwright|schemathesis)==' \
  > .venv-next/requirements.txt
echo "$spec" > .venv-next/override.txt
VIRTUAL_ENV="$PWD/.venv-next" .venv/bin/uv pip install -q \
  -r .venv-next/requirements.txt --override .venv-next/override.txt
.venv-next/bin/python -c "import django, sys; print('Django', django.get_version(), 'on Python', sys.version.split()[0])"

set +e
.venv-next/bin/python -m pytest -q -p no:cacheprovider -n "${TEST_PROCESSES:-auto}" \
  tests/figures tests/core/test_compiled_query.py tests/core/test_compiled_lookup.py
status=$?
set -e
if [ "$status" -eq 5 ]; then
  echo "next Django: no tests ran" >&2
  exit 1
fi
exit "$status"

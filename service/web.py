"""The web page, teaching mode and FAQ pages (issue 5). Placeholder router, being built."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter()

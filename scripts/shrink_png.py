"""Make the guides' screenshots small before they are committed: a screenshot of a page has few
colours, so a 256-colour palette (no dithering, which would speckle flat backgrounds) reads the
same and weighs about half. Needs Pillow, which the app itself does not: without it the files are
left as they are and a line says so.

    python scripts/shrink_png.py docs/img/*.png
"""

from __future__ import annotations

import sys
from pathlib import Path


def main(paths: list[str]) -> int:
    try:
        from PIL import Image
    except ImportError:
        print("shrink_png: Pillow is not installed; screenshots left as they are", file=sys.stderr)
        return 0
    before = after = 0
    for name in paths:
        path = Path(name)
        size = path.stat().st_size
        with Image.open(path) as image:
            palette = image.convert("RGB").quantize(
                colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        palette.save(path, optimize=True)
        before += size
        after += path.stat().st_size
    print(f"shrink_png: {len(paths)} files, {before // 1024} KiB -> {after // 1024} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

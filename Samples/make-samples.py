#!/usr/bin/env python3
"""Draws the bundled sample tile pyramid (zooms 0-3, 85 PNG tiles) into Samples/world/.

Each tile is a 256x256 PNG with a colour that varies by column and row, a border, and its
z/x/y label, so a map shows at a glance whether rows are flipped. Tiles on the sea rows
(the top and bottom rows at zoom 3) are the same plain blue image, as real sets repeat ocean
tiles. Deterministic: the same bytes on every run. Needs only the Python standard library.
Run Scripts/make-samples to rebuild world/, world.mbtiles and world.tar from it.
"""
import json, os, struct, sys, zlib

FONT = {  # 3x5 pixel glyphs
    "0": "111101101101111", "1": "010110010010111", "2": "111001111100111", "3": "111001111001111",
    "4": "101101111001001", "5": "111100111001111", "6": "111100111101111", "7": "111001001001001",
    "8": "111101111101111", "9": "111101111001111", "/": "001001010100100",
}

def png(pixels):
    raw = b"".join(b"\x00" + bytes(row) for row in pixels)
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", 256, 256, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")

def tile(z, x, y):
    n = 1 << z
    if z == 3 and y in (0, n - 1):
        base = (70, 130, 180)
        return png([[*base] * 256 for _ in range(256)])
    base = (60 + 160 * x // n, 200 - 120 * y // n, 90 + 40 * z)
    rows = [[*base] * 256 for _ in range(256)]
    for i in range(256):
        for j in (0, 1, 254, 255):
            rows[i][3 * j:3 * j + 3] = [40, 40, 40]
            rows[j][3 * i:3 * i + 3] = [40, 40, 40]
    label, scale = f"{z}/{x}/{y}", 8
    left = (256 - len(label) * 4 * scale) // 2
    top = (256 - 5 * scale) // 2
    for k, ch in enumerate(label):
        for gy in range(5):
            for gx in range(3):
                if FONT[ch][gy * 3 + gx] == "1":
                    for py in range(scale):
                        for px in range(scale):
                            X, Y = left + (k * 4 + gx) * scale + px, top + gy * scale + py
                            rows[Y][3 * X:3 * X + 3] = [255, 255, 255]
    return png(rows)

def main(root):
    for z in range(4):
        for x in range(1 << z):
            os.makedirs(f"{root}/{z}/{x}", exist_ok=True)
            for y in range(1 << z):
                with open(f"{root}/{z}/{x}/{y}.png", "wb") as f:
                    f.write(tile(z, x, y))
    metadata = {"name": "TileSync sample", "description": "Generated tiles labelled z/x/y (XYZ)",
                "attribution": "TileSync sample data (generated)", "version": "1", "type": "baselayer",
                "format": "png", "minzoom": "0", "maxzoom": "3", "center": "0,0,1",
                "bounds": "-180,-85.051129,180,85.051129"}
    with open(f"{root}/metadata.json", "w") as f:
        json.dump(metadata, f, indent=2)
        f.write("\n")

if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "world"))

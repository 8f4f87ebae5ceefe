"""The Pillow peer of Benchmarks/raster-benchmark.sh: every PNG under a folder re-encoded into
another folder by a pool of one process per core.

    python3 raster-benchmark.py SRC DST webp-lossy|webp-lossless|png [QUALITY]
"""
import os
import sys
from multiprocessing import Pool

from PIL import Image


def encode(job):
    source, target, mode, quality = job
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with Image.open(source) as image:
        if mode == "webp-lossy":
            image.save(target, "WEBP", quality=quality, method=4)
        elif mode == "webp-lossless":
            image.save(target, "WEBP", lossless=True, quality=quality, method=4, exact=True)
        else:
            image.save(target, "PNG", optimize=True)


def main():
    source, target, mode = sys.argv[1:4]
    quality = int(sys.argv[4]) if len(sys.argv) > 4 else 75
    jobs = []
    for folder, _, names in os.walk(source):
        for name in names:
            if name.endswith(".png"):
                relative = os.path.relpath(os.path.join(folder, name), source)
                suffix = ".png" if mode == "png" else ".webp"
                jobs.append((os.path.join(folder, name), os.path.join(target, relative[:-4] + suffix), mode, quality))
    with Pool(os.cpu_count()) as pool:
        pool.map(encode, jobs, chunksize=64)


if __name__ == "__main__":
    main()

"""Makes an OSM extract referentially complete for tilemaker 2.2, which stops on a
way whose node the file lacks: each way keeps only the nodes the file has (ways left
with fewer than two are dropped); relations are dropped.

Usage: python trim_missing_nodes.py IN.opl OUT.opl
"""
import sys


def main(src, dst):
    lines = open(src, encoding="utf-8").read().splitlines()
    nodes = {line.split(" ", 1)[0][1:] for line in lines if line.startswith("n")}
    kept = dropped = trimmed = 0
    with open(dst, "w", encoding="utf-8") as out:
        for line in lines:
            if line.startswith("r"):
                dropped += 1
                continue
            if line.startswith("w"):
                fields = line.split(" ")
                refs = next(f for f in fields if f.startswith("N"))[1:].split(",")
                have = [r for r in refs if r and r[1:] in nodes]
                if len(have) < 2:
                    dropped += 1
                    continue
                if len(have) != len(refs):
                    trimmed += 1
                line = " ".join("N" + ",".join(have) if f.startswith("N") else f for f in fields)
            kept += 1
            out.write(line + "\n")
    print(f"  {kept} objects kept, {trimmed} ways trimmed, {dropped} ways and relations dropped")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])

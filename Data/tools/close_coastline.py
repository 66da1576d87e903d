#!/usr/bin/env python3
"""Close an extract's open coastline along the extract's box, for osmcoastline.

An extract cuts the coastline: its ways chain into open lines whose ends lie at (or near) the
cut. osmcoastline builds land and water polygons from closed rings only (land on the left of
a coastline way, sea on the right). This script reads the extract's coastline ways and nodes
(OPL from `osmium cat`), finds every open chain and writes an OSM XML file with one extra
`natural=coastline` way per chain: from the chain's end straight to the nearest side of the box
(grown by MARGIN degrees, so coastline that pokes out of the box by a few metres stays inside),
counter-clockwise along it (the land side: land stays on the left), then straight to the
nearest point of the box from the chain's start and to the start. With it merged into the
extract, osmcoastline closes every ring; everything else (ring assembly, validity, water
polygons) is osmcoastline's.

Usage: close_coastline.py COAST.opl MINLON,MINLAT,MAXLON,MAXLAT OUT.osm
"""

import sys

# Degrees the closing ways run outside the box (tilemaker clips to the extract's box anyway).
MARGIN = 0.001
NEW_IDS = 9_000_000_000_000


def main():
    opl, bbox, out = sys.argv[1:4]
    x0, y0, x1, y1 = map(float, bbox.split(","))
    x0, y0, x1, y1 = x0 - MARGIN, y0 - MARGIN, x1 + MARGIN, y1 + MARGIN
    nodes, ways = {}, []
    for line in open(opl, encoding="utf-8"):
        f = line.split()
        if not f:
            continue
        if f[0][0] == "n":
            xs = [t for t in f if t.startswith("x")]
            ys = [t for t in f if t.startswith("y")]
            nodes[int(f[0][1:])] = (float(xs[0][1:]), float(ys[0][1:]))
        elif f[0][0] == "w":
            refs = [t for t in f if t.startswith("N")][0][1:]
            ways.append([int(r[1:]) for r in refs.split(",") if r])
    starts = {w[0]: w for w in ways if w[0] != w[-1]}
    ends = {w[-1] for w in ways if w[0] != w[-1]}
    # Chains: start at a way whose first node no other way ends at.
    chains = []
    for first, w in starts.items():
        if first in ends:
            continue
        chain = list(w)
        while chain[-1] in starts and chain[-1] != chain[0]:
            chain += starts[chain[-1]][1:]
        chains.append(chain)

    def to_box(p):
        """The nearest point of the box's outline from p (inside the box)."""
        x, y = p
        d = [(x - x0, (x0, y)), (x1 - x, (x1, y)), (y - y0, (x, y0)), (y1 - y, (x, y1))]
        return min(d)[1]

    def perimeter(p):
        """Position along the box counter-clockwise from (x0, y0): bottom, right, top, left."""
        x, y = p
        w, h = x1 - x0, y1 - y0
        if abs(y - y0) < 1e-12:
            return x - x0
        if abs(x - x1) < 1e-12:
            return w + (y - y0)
        if abs(y - y1) < 1e-12:
            return w + h + (x1 - x)
        return 2 * w + h + (y1 - y)

    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    total = 2 * ((x1 - x0) + (y1 - y0))
    # New ids above any OSM id (osmium merge wants each input sorted, negative ids would not be).
    next_id = NEW_IDS
    xml_nodes, xml_ways = [], []

    def new_node(p):
        nonlocal next_id
        nid = next_id
        next_id += 1
        xml_nodes.append(f'  <node id="{nid}" version="1" lat="{p[1]:.7f}" lon="{p[0]:.7f}"/>')
        return nid

    for n, chain in enumerate(chains):
        end, start = chain[-1], chain[0]
        pe = to_box(nodes[end])
        ps = to_box(nodes[start])
        # Counter-clockwise from pe to ps along the box, passing the corners in between.
        a, b = perimeter(pe), perimeter(ps)
        if b <= a:
            b += total
        refs = [end, new_node(pe)]
        for k in range(8):
            c = corners[k % 4]
            pc = perimeter(c) + (total if k >= 4 else 0)
            if a < pc < b:
                refs.append(new_node(c))
        refs += [new_node(ps), start]
        nds = "".join(f'<nd ref="{r}"/>' for r in refs)
        xml_ways.append(
            f'  <way id="{NEW_IDS + n}" version="1">{nds}'
            '<tag k="natural" v="coastline"/><tag k="source" v="extract box"/></way>'
        )
        print(f"  chain {n}: {len(chain)} nodes, closed along the box through {len(refs) - 2} new nodes")
    with open(out, "w", encoding="utf-8") as o:
        o.write('<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6" generator="close_coastline.py">\n')
        o.write("\n".join(xml_nodes + xml_ways) + "\n</osm>\n")


if __name__ == "__main__":
    main()

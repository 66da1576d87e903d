#!/usr/bin/env python3
"""Writes Tests/LiveLayersTests/Fixtures/ais-harbour.log: an invented AIVDM log for gpsfake.

Three made-up vessels off Kiel (MMSIs in the 211 range, names and call signs invented):
211000001 "GULL" (class A: a type 1 position, minutes later its type 5 name and call sign),
211000002 "TERN" (class B: type 18 positions and a type 24 name: part A, then part B with its call sign) and 211000003 (class A,
50 type 1 positions a few metres apart), with a $GPRMC line per second of the receiver's own.
Encoded as ITU-R M.1371 says (six-bit armouring, NMEA 0183 checksums). Run from the repository
root: python3 Data/tools/make-ais-fixture.py
"""

SIXBIT = "@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_ !\"#$%&'()*+,-./0123456789:;<=>?"


class Bits:
    def __init__(self):
        self.bits = ""

    def u(self, value, width):
        self.bits += format(value & ((1 << width) - 1), "0%db" % width)
        return self

    def text(self, s, chars):
        for ch in s.upper().ljust(chars, "@")[:chars]:
            self.u(SIXBIT.index(ch), 6)
        return self

    def armoured(self):
        fill = (-len(self.bits)) % 6
        b = self.bits + "0" * fill
        out = ""
        for i in range(0, len(b), 6):
            v = int(b[i:i + 6], 2)
            out += chr(v + 48 if v < 40 else v + 56)
        return out, fill


def checksum(body):
    c = 0
    for ch in body:
        c ^= ord(ch)
    return "%02X" % c


def sentences(bits, seq=""):
    payload, fill = bits.armoured()
    parts = [payload[i:i + 60] for i in range(0, len(payload), 60)]
    out = []
    for n, part in enumerate(parts, 1):
        f = fill if n == len(parts) else 0
        body = "AIVDM,%d,%d,%s,A,%s,%d" % (len(parts), n, seq if len(parts) > 1 else "", part, f)
        out.append("!%s*%s" % (body, checksum(body)))
    return out


def position(lat, lon):
    return round(lon * 600000), round(lat * 600000)


def type1(mmsi, lat, lon, speed, course, second):
    x, y = position(lat, lon)
    b = Bits().u(1, 6).u(0, 2).u(mmsi, 30).u(0, 4).u(-128, 8).u(speed, 10).u(0, 1)
    b.u(x, 28).u(y, 27).u(course, 12).u(course // 10, 9).u(second, 6).u(0, 2).u(0, 3)
    return b.u(0, 1).u(0, 19)


def type5(mmsi, callsign, name, destination):
    b = Bits().u(5, 6).u(0, 2).u(mmsi, 30).u(0, 2).u(9000001, 30).text(callsign, 7)
    b.text(name, 20).u(70, 8).u(80, 9).u(20, 9).u(6, 6).u(6, 6).u(1, 4).u(11, 4).u(26, 5)
    return b.u(12, 5).u(0, 6).u(52, 8).text(destination, 20).u(0, 1).u(0, 1)


def type18(mmsi, lat, lon, speed, course, second):
    x, y = position(lat, lon)
    b = Bits().u(18, 6).u(0, 2).u(mmsi, 30).u(0, 8).u(speed, 10).u(0, 1).u(x, 28).u(y, 27)
    b.u(course, 12).u(511, 9).u(second, 6).u(0, 2).u(1, 1).u(0, 1).u(1, 1).u(1, 1).u(1, 1)
    return b.u(0, 1).u(0, 1).u(0, 20)


def type24a(mmsi, name):
    return Bits().u(24, 6).u(0, 2).u(mmsi, 30).u(0, 2).text(name, 20)


def type24b(mmsi, callsign):
    b = Bits().u(24, 6).u(0, 2).u(mmsi, 30).u(1, 2).u(37, 8).text("TMP", 3).u(1, 4)
    return b.u(1234, 20).text(callsign, 7).u(10, 9).u(3, 9).u(2, 6).u(2, 6).u(1, 4).u(0, 2)


def rmc(second):
    t = "1200%02d.00" % (second % 60)
    body = "GPRMC,%s,A,5420.0000,N,01010.0000,E,0.0,,011126,,,A" % t
    return "$%s*%s" % (body, checksum(body))


lines = ["# Invented AIVDM log (Data/tools/make-ais-fixture.py): three vessels off Kiel."]
seq = 0
for second in range(60):
    lines.append(rmc(second))
    if second == 0:
        lines += sentences(type1(211000001, 54.3210, 10.1500, 52, 900, second))
    if second % 6 == 1:
        lines += sentences(type18(211000002, 54.3300 + second * 1e-4, 10.1600, 51, 1200, second))
    if second == 20:
        lines += sentences(type24a(211000002, "TERN"))
        lines += sentences(type24b(211000002, "DB5678"))
    if second == 40:
        seq = (seq + 1) % 10
        lines += sentences(type5(211000001, "DA1234", "GULL", "KIEL"), seq=str(seq))
    if second < 50:
        lines += sentences(
            type1(211000003, 54.3400 + second * 2e-5, 10.1700 + second * 2e-5, 31, 450, second))

with open("Tests/LiveLayersTests/Fixtures/ais-harbour.log", "w") as f:
    f.write("\n".join(lines) + "\n")

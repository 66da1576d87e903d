function __termmap_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __termmap_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __termmap_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __termmap_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __termmap_parse_tokens -S
    set -l unparsed_tokens (__termmap_tokens -pc)
    switch $unparsed_tokens[1]
    case 'termmap'
        __termmap_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'view'
            __termmap_parse_subcommand -r 1 'center=' 'zoom=' 'bbox=' 'charset=' 'style=' 'lang=' 'no-basemap' 'tiles=+' 'raster=' 'keep-routes' 'settle=' 'follow=' 'record=' 'layer=+' 'every=' 'ttl=' 'max-targets=' 'trail=' 'version' 'h/help'
        case 'render'
            __termmap_parse_subcommand -r 1 'center=' 'zoom=' 'size=' 'color=' 'bbox=' 'charset=' 'style=' 'lang=' 'no-basemap' 'tiles=+' 'raster=' 'status' 'wait=' 'layer=+' 'every=' 'ttl=' 'max-targets=' 'trail=' 'version' 'h/help'
        case 'info'
            __termmap_parse_subcommand -r 1 'json' 'version' 'h/help'
        case 'bench'
            __termmap_parse_subcommand 1 'json' 'size=' 'quick' 'only=' 'tiles=' 'style=' 'sessions=' 'seconds=' 'connections=' 'center=' 'zoom=' 'version' 'h/help'
        case 'get'
            __termmap_parse_subcommand 1 'bbox=' 'around=' 'radius=' 'from=' 'maxzoom=' 'name=' 'output=' 'parallel=' 'drop-layers=' 'dry-run' 'yes' 'version' 'h/help'
        case 'regions'
            __termmap_parse_subcommand -r 1 'version' 'h/help'
        case 'serve'
            __termmap_parse_subcommand -r 1 'listen=' 'host-key=' 'authorized-keys=' 'anonymous' 'check' 'max-sessions=' 'idle-timeout=' 'metrics=' 'center=' 'zoom=' 'bbox=' 'charset=' 'style=' 'lang=' 'no-basemap' 'tiles=+' 'raster=' 'layer=+' 'every=' 'ttl=' 'max-targets=' 'trail=' 'version' 'h/help'
        case 'style'
            __termmap_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'validate'
                __termmap_parse_subcommand 1 'version' 'h/help'
            case 'eval'
                __termmap_parse_subcommand 1 'zoom=' 'type=' 'feature=' 'version' 'h/help'
            case 'test'
                __termmap_parse_subcommand 1 'verbose' 'version' 'h/help'
            end
        case 'pick'
            __termmap_parse_subcommand -r 1 'center=' 'zoom=' 'bbox=' 'charset=' 'style=' 'lang=' 'no-basemap' 'tiles=+' 'raster=' 'keep-routes' 'settle=' 'follow=' 'record=' 'layer=+' 'every=' 'ttl=' 'max-targets=' 'trail=' 'version' 'h/help'
        case 'help'
            __termmap_parse_subcommand -r 1 'version'
        end
    end
end

function __termmap_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __termmap_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __termmap_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __termmap_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__termmap_tokens -p)
    if test -z "$(__termmap_tokens -t)"
        set -l index (count (__termmap_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'termmap' -f
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap" version' -l 'version' -d 'Show the version.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_positional "termmap" -eq 1' -fa 'view' -d 'Open the interactive viewer (the default; ? shows the keys).'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_positional "termmap" -eq 1' -fa 'render' -d 'Print one frame of the map to stdout.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_positional "termmap" -eq 1' -fa 'info' -d 'Describe data files: format, counts, extent, length, elevation and time.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_positional "termmap" -eq 1' -fa 'bench' -d 'Measure frame times and memory (build with -c release).'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_positional "termmap" -eq 1' -fa 'get' -d 'Cut a region from a PMTiles archive (a file or an http(s) URL) for offline use.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_positional "termmap" -eq 1' -fa 'regions' -d 'List the regions termmap get stored, or remove one (regions remove NAME).'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_positional "termmap" -eq 1' -fa 'serve' -d 'Serve the map over SSH: each connection gets its own viewer (ssh -p PORT HOST).'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_positional "termmap" -eq 1' -fa 'style' -d 'Check MapLibre styles and expressions: validate, eval, test.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_positional "termmap" -eq 1' -fa 'pick' -d 'Choose a place on the map: its GeoJSON feature goes to stdout (a map-shaped fzf).'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_positional "termmap" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap view" center' -l 'center' -d 'The centre of the view, in degrees (latitude -90 to 90, longitude -180 to 180).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap view" zoom' -l 'zoom' -d 'The zoom level, -4 to 22 (below 0 the whole world fits a small terminal).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap view" bbox' -l 'bbox' -d 'The region to show: west, south, east, north in degrees (W > E crosses the antimeridian); not with --center or --zoom.' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap view" charset' -l 'charset' -d 'The characters the map is drawn with (default: braille, or ascii without a UTF-8 locale).' -rfka 'braille block ascii'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap view" style' -l 'style' -d 'The map\'s colours: dark, light (for light terminals) or mono (no colour), default from the terminal\'s background, mono under NO_COLOR; or a MapLibre style: a style JSON file or an http(s) URL, whose sources are drawn (with --tiles: whose layers draw those tiles).' -rfka 'dark light mono'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap view" lang' -l 'lang' -d 'The labels\' language: names in it (name:CODE) where the map has them (default: the locale\'s, LC_ALL, LC_MESSAGES or LANG).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap view" no-basemap' -l 'no-basemap' -d 'Draw only your data and --tiles, not the offline map.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap view"' -l 'tiles' -d 'Add a tile layer on top of the map (repeatable): a file, directory, URL or source name.' -rF
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap view" raster' -l 'raster' -d 'How raster tiles are drawn: braille dots (the default) or half blocks.' -rfka 'dots blocks'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap view" keep-routes' -l 'keep-routes' -d 'Keep routes shown while the map moves (by default they are hidden until it settles).'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap view" settle' -l 'settle' -d 'Milliseconds without movement that end a change, 0 to 5000 (default 150).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap view" follow' -l 'follow' -d 'Follow a live position: gpsd[://HOST:PORT], a serial device with NMEA 0183, - (NMEA on standard input) or a growing NMEA, GPX or CSV file.' -rF
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap view" record' -l 'record' -d 'Record the followed track to a GPX file, written as it goes (valid even if killed or the disk fills). A file that is there must be a termmap recording: a track is added to it.' -rfa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'gpx\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap view"' -l 'layer' -d 'Draw moving targets from a source (repeatable): - (standard input), a file (followed as it grows), a FIFO, tcp://HOST:PORT, http(s)://URL (polled) or gpsd://HOST[:PORT] (AIS). GeoJSON lines, FeatureCollections or RFC 8142 sequences, CSV with id,lat,lon, dump1090\'s aircraft.json or gpsd\'s AIS reports.' -rF
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap view" every' -l 'every' -d 'Seconds between fetches of an http(s) --layer (default 1).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap view" ttl' -l 'ttl' -d 'A target silent this long is drawn stale, and removed after twice that (default: aircraft 60, vessels 600, other features never; a ttl property wins).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap view" max-targets' -l 'max-targets' -d 'Keep at most N targets; past that the least recently updated are dropped (default 100000).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap view" trail' -l 'trail' -d 'Draw each target\'s trail of its last N positions (default 0, at most 10000).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_positional "termmap view" -ge 1' -F
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap view" version' -l 'version' -d 'Show the version.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap view" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap render" center' -l 'center' -d 'The centre of the view, in degrees (latitude -90 to 90, longitude -180 to 180).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap render" zoom' -l 'zoom' -d 'The zoom level, -4 to 22 (below 0 the whole world fits a small terminal).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap render" size' -l 'size' -d 'The frame\'s size in cells (default 80x24, at most 2000x1000).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap render" color' -l 'color' -d 'Colour escapes: auto (when stdout is a terminal and NO_COLOR is unset), always or never.' -rfka 'auto always never'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap render" bbox' -l 'bbox' -d 'The region to show: west, south, east, north in degrees (W > E crosses the antimeridian); not with --center or --zoom.' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap render" charset' -l 'charset' -d 'The characters the map is drawn with (default: braille, or ascii without a UTF-8 locale).' -rfka 'braille block ascii'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap render" style' -l 'style' -d 'The map\'s colours: dark, light (for light terminals) or mono (no colour), default from the terminal\'s background, mono under NO_COLOR; or a MapLibre style: a style JSON file or an http(s) URL, whose sources are drawn (with --tiles: whose layers draw those tiles).' -rfka 'dark light mono'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap render" lang' -l 'lang' -d 'The labels\' language: names in it (name:CODE) where the map has them (default: the locale\'s, LC_ALL, LC_MESSAGES or LANG).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap render" no-basemap' -l 'no-basemap' -d 'Draw only your data and --tiles, not the offline map.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap render"' -l 'tiles' -d 'Add a tile layer on top of the map (repeatable): a file, directory, URL or source name.' -rF
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap render" raster' -l 'raster' -d 'How raster tiles are drawn: braille dots (the default) or half blocks.' -rfka 'dots blocks'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap render" status' -l 'status' -d 'Add a status line: the centre, the zoom, a scale bar and the credits.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap render" wait' -l 'wait' -d 'How long to wait for tiles from the network before printing without those still missing (default 15), and how long to read a --layer stream (default 3).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap render"' -l 'layer' -d 'Draw moving targets from a source (repeatable): - (standard input), a file (followed as it grows), a FIFO, tcp://HOST:PORT, http(s)://URL (polled) or gpsd://HOST[:PORT] (AIS). GeoJSON lines, FeatureCollections or RFC 8142 sequences, CSV with id,lat,lon, dump1090\'s aircraft.json or gpsd\'s AIS reports.' -rF
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap render" every' -l 'every' -d 'Seconds between fetches of an http(s) --layer (default 1).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap render" ttl' -l 'ttl' -d 'A target silent this long is drawn stale, and removed after twice that (default: aircraft 60, vessels 600, other features never; a ttl property wins).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap render" max-targets' -l 'max-targets' -d 'Keep at most N targets; past that the least recently updated are dropped (default 100000).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap render" trail' -l 'trail' -d 'Draw each target\'s trail of its last N positions (default 0, at most 10000).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_positional "termmap render" -ge 1' -F
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap render" version' -l 'version' -d 'Show the version.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap render" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap info" json' -l 'json' -d 'Print JSON instead of text.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_positional "termmap info" -ge 1' -F
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap info" version' -l 'version' -d 'Show the version.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap info" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap bench" json' -l 'json' -d 'Print JSON instead of text.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap bench" size' -l 'size' -d 'The frame\'s size in cells (default 160x48).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap bench" quick' -l 'quick' -d 'Fewer frames and smaller data, for a quick look.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap bench" only' -l 'only' -d 'Run only the scenarios whose name starts with PREFIX.' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap bench" tiles' -l 'tiles' -d 'Measure this tile source (needs --center and --zoom).' -rF
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap bench" style' -l 'style' -d 'With --tiles: draw its vector tiles with this style (dark, light, mono, or a MapLibre style file or URL, applied by source-layer).' -rF
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap bench" sessions' -l 'sessions' -d 'bench serve: sessions typing at once (default 100; --quick 10).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap bench" seconds' -l 'seconds' -d 'bench serve: how long they type, in seconds (default 30; --quick 5).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap bench" connections' -l 'connections' -d 'bench serve: connections opened and dropped (default 1000; --quick 100).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap bench" center' -l 'center' -d 'The centre of the view, in degrees (latitude -90 to 90, longitude -180 to 180).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap bench" zoom' -l 'zoom' -d 'The zoom level, -4 to 22 (below 0 the whole world fits a small terminal).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap bench" version' -l 'version' -d 'Show the version.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap bench" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap get" bbox' -l 'bbox' -d 'The region: west, south, east, north in degrees (W > E crosses the antimeridian).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap get" around' -l 'around' -d 'The centre of a region given with --radius.' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap get" radius' -l 'radius' -d 'The region\'s half width with --around, in km.' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap get" from' -l 'from' -d 'A PMTiles archive: a file or an http(s) URL (default: [get] from in the config file, else the Protomaps planet).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap get" maxzoom' -l 'maxzoom' -d 'The deepest zoom level cut (default 15).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap get" name' -l 'name' -d 'Store the region under this name (in $XDG_DATA_HOME/termmap/regions), where the viewer and render find it; its names are indexed for / search.' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap get" output' -l 'output' -d 'Write the archive to this file instead.' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap get" parallel' -l 'parallel' -d 'Range requests in flight at once (default 4).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap get" drop-layers' -l 'drop-layers' -d 'Vector tile layers to leave out of the cut (e.g. buildings,pois).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap get" dry-run' -l 'dry-run' -d 'Print the region, the tiles per zoom, the bytes and the requests, and stop.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap get" yes' -l 'yes' -d 'Do not ask before a download over 500 MB.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap get" version' -l 'version' -d 'Show the version.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap get" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap regions" version' -l 'version' -d 'Show the version.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap regions" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap serve" listen' -l 'listen' -d 'The address and port to listen on (default 127.0.0.1:2222; 0.0.0.0:2222 for all).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap serve" host-key' -l 'host-key' -d 'The host key: an Ed25519 key in OpenSSH\'s format, made (mode 0600) when missing (default ~/.local/share/termmap/ssh_host_ed25519_key).' -rF
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap serve" authorized-keys' -l 'authorized-keys' -d 'Let in only the holders of these public keys (OpenSSH\'s authorized_keys format).' -rF
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap serve" anonymous' -l 'anonymous' -d 'Let anyone in, with any user name and no password.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap serve" check' -l 'check' -d 'Check the options, the keys and the map, say what would be served, and exit (as sshd -t).'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap serve" max-sessions' -l 'max-sessions' -d 'Sessions at once, in all (default 100).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap serve" idle-timeout' -l 'idle-timeout' -d 'Close a connection idle this long (seconds, default 1800; 0: never).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap serve" metrics' -l 'metrics' -d 'Serve the counters (sessions, frames, bytes out, refusals, connections) in Prometheus\' text format at http://ADDR:PORT/metrics.' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap serve" center' -l 'center' -d 'The centre of the view, in degrees (latitude -90 to 90, longitude -180 to 180).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap serve" zoom' -l 'zoom' -d 'The zoom level, -4 to 22 (below 0 the whole world fits a small terminal).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap serve" bbox' -l 'bbox' -d 'The region to show: west, south, east, north in degrees (W > E crosses the antimeridian); not with --center or --zoom.' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap serve" charset' -l 'charset' -d 'The characters the map is drawn with (default: braille, or ascii without a UTF-8 locale).' -rfka 'braille block ascii'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap serve" style' -l 'style' -d 'The map\'s colours: dark, light (for light terminals) or mono (no colour), default from the terminal\'s background, mono under NO_COLOR; or a MapLibre style: a style JSON file or an http(s) URL, whose sources are drawn (with --tiles: whose layers draw those tiles).' -rfka 'dark light mono'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap serve" lang' -l 'lang' -d 'The labels\' language: names in it (name:CODE) where the map has them (default: the locale\'s, LC_ALL, LC_MESSAGES or LANG).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap serve" no-basemap' -l 'no-basemap' -d 'Draw only your data and --tiles, not the offline map.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap serve"' -l 'tiles' -d 'Add a tile layer on top of the map (repeatable): a file, directory, URL or source name.' -rF
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap serve" raster' -l 'raster' -d 'How raster tiles are drawn: braille dots (the default) or half blocks.' -rfka 'dots blocks'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap serve"' -l 'layer' -d 'Draw moving targets from a source (repeatable): - (standard input), a file (followed as it grows), a FIFO, tcp://HOST:PORT, http(s)://URL (polled) or gpsd://HOST[:PORT] (AIS). GeoJSON lines, FeatureCollections or RFC 8142 sequences, CSV with id,lat,lon, dump1090\'s aircraft.json or gpsd\'s AIS reports.' -rF
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap serve" every' -l 'every' -d 'Seconds between fetches of an http(s) --layer (default 1).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap serve" ttl' -l 'ttl' -d 'A target silent this long is drawn stale, and removed after twice that (default: aircraft 60, vessels 600, other features never; a ttl property wins).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap serve" max-targets' -l 'max-targets' -d 'Keep at most N targets; past that the least recently updated are dropped (default 100000).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap serve" trail' -l 'trail' -d 'Draw each target\'s trail of its last N positions (default 0, at most 10000).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_positional "termmap serve" -ge 1' -F
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap serve" version' -l 'version' -d 'Show the version.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap serve" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap style" version' -l 'version' -d 'Show the version.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap style" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_positional "termmap style" -eq 1' -fa 'validate' -d 'Check a MapLibre style document (version 8); errors with their JSON path.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_positional "termmap style" -eq 1' -fa 'eval' -d 'Evaluate a style expression; print the result as JSON.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_positional "termmap style" -eq 1' -fa 'test' -d 'Run a file of expression test cases; print failures and the pass rate.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_positional "termmap style validate" -eq 1' -F
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap style validate" version' -l 'version' -d 'Show the version.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap style validate" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap style eval" zoom' -l 'zoom' -d 'The zoom level.' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap style eval" type' -l 'type' -d 'The type the result must have, as a property\'s: number, string, boolean, color, formatted, object or array (strings then become colours, say).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap style eval" feature' -l 'feature' -d 'The feature: a GeoJSON Feature (properties, id, geometry) as JSON.' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap style eval" version' -l 'version' -d 'Show the version.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap style eval" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap style test" verbose' -l 'verbose' -d 'Print every case, passed ones too.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_positional "termmap style test" -eq 1' -F
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap style test" version' -l 'version' -d 'Show the version.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap style test" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap pick" center' -l 'center' -d 'The centre of the view, in degrees (latitude -90 to 90, longitude -180 to 180).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap pick" zoom' -l 'zoom' -d 'The zoom level, -4 to 22 (below 0 the whole world fits a small terminal).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap pick" bbox' -l 'bbox' -d 'The region to show: west, south, east, north in degrees (W > E crosses the antimeridian); not with --center or --zoom.' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap pick" charset' -l 'charset' -d 'The characters the map is drawn with (default: braille, or ascii without a UTF-8 locale).' -rfka 'braille block ascii'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap pick" style' -l 'style' -d 'The map\'s colours: dark, light (for light terminals) or mono (no colour), default from the terminal\'s background, mono under NO_COLOR; or a MapLibre style: a style JSON file or an http(s) URL, whose sources are drawn (with --tiles: whose layers draw those tiles).' -rfka 'dark light mono'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap pick" lang' -l 'lang' -d 'The labels\' language: names in it (name:CODE) where the map has them (default: the locale\'s, LC_ALL, LC_MESSAGES or LANG).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap pick" no-basemap' -l 'no-basemap' -d 'Draw only your data and --tiles, not the offline map.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap pick"' -l 'tiles' -d 'Add a tile layer on top of the map (repeatable): a file, directory, URL or source name.' -rF
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap pick" raster' -l 'raster' -d 'How raster tiles are drawn: braille dots (the default) or half blocks.' -rfka 'dots blocks'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap pick" keep-routes' -l 'keep-routes' -d 'Keep routes shown while the map moves (by default they are hidden until it settles).'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap pick" settle' -l 'settle' -d 'Milliseconds without movement that end a change, 0 to 5000 (default 150).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap pick" follow' -l 'follow' -d 'Follow a live position: gpsd[://HOST:PORT], a serial device with NMEA 0183, - (NMEA on standard input) or a growing NMEA, GPX or CSV file.' -rF
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap pick" record' -l 'record' -d 'Record the followed track to a GPX file, written as it goes (valid even if killed or the disk fills). A file that is there must be a termmap recording: a track is added to it.' -rfa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'gpx\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap pick"' -l 'layer' -d 'Draw moving targets from a source (repeatable): - (standard input), a file (followed as it grows), a FIFO, tcp://HOST:PORT, http(s)://URL (polled) or gpsd://HOST[:PORT] (AIS). GeoJSON lines, FeatureCollections or RFC 8142 sequences, CSV with id,lat,lon, dump1090\'s aircraft.json or gpsd\'s AIS reports.' -rF
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap pick" every' -l 'every' -d 'Seconds between fetches of an http(s) --layer (default 1).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap pick" ttl' -l 'ttl' -d 'A target silent this long is drawn stale, and removed after twice that (default: aircraft 60, vessels 600, other features never; a ttl property wins).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap pick" max-targets' -l 'max-targets' -d 'Keep at most N targets; past that the least recently updated are dropped (default 100000).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap pick" trail' -l 'trail' -d 'Draw each target\'s trail of its last N positions (default 0, at most 10000).' -rfka ''
complete -c 'termmap' -n '__termmap_should_offer_completions_for_positional "termmap pick" -ge 1' -F
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap pick" version' -l 'version' -d 'Show the version.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap pick" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'termmap' -n '__termmap_should_offer_completions_for_flags_or_options "termmap help" version' -l 'version' -d 'Show the version.'

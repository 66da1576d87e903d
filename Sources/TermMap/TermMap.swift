// The whole library under one name: `import TermMap` gives the map model and its renderers
// (MapGeometry, DotRaster, TermMapKit), the file readers (MapData), tile sources (TileData),
// the style specification and its expressions (MapStyle),
// tile overlays and styles (MapTiles), raster tiles (RasterTiles), live location
// providers (LiveLocation) and live layers of moving targets (LiveLayers).
@_exported import DotRaster
@_exported import LiveLayers
@_exported import LiveLocation
@_exported import MapData
@_exported import MapGeometry
@_exported import MapStyle
@_exported import MapTiles
@_exported import RasterTiles
@_exported import TermMapKit
@_exported import TileData

import MapGeometry

extension AvailableTile {
  /// A decoded tile standing in for `requestedID`: the tile itself, or an ancestor (`sourceID`
  /// at a lower zoom) to scale up, or a descendant drawn where it lies (scale 1).
  public init(tile: DecodedTile, sourceID: TileID, requestedID: TileID) {
    self.init(
      tile: tile, sourceID: sourceID, requestedID: requestedID,
      scale: 1 << max(0, requestedID.z - sourceID.z))
  }
}

import DotRaster
import MapGeometry

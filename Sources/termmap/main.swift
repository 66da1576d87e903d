import MapGeometry
print("termmap")

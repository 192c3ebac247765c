"""Small view components shared by the pages."""

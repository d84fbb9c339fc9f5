"""Printing: scoresheets and other sheets as PDF, drawn by print jobs off the request."""

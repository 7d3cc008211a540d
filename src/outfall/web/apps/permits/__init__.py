"""Stormwater management permits (Article II of Chapter 267)."""

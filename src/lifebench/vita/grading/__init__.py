"""Grading of VitaBench simulations."""

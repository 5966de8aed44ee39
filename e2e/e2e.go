// Package e2e replays limitcheck's inputs against a real control plane.
package e2e

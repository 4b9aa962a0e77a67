// Package bsstest is a fake of the radio a bss.BSS reaches through
// bss.Radio: it records the management frames the BSS sends and refuses
// buffers or replies on demand.
package bsstest

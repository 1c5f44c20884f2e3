package plugin

import (
	"bytes"
	"crypto/sha256"
	"image"
	"image/color"
	"image/png"
)

// IconSize is the side of the icon in pixels: within the 512–2048 px a
// plugin directory accepts.
const IconSize = 512

// Icon returns a deterministic square PNG for the plugin called name: a
// symmetric 5×5 pattern on a light background, both derived from the
// SHA-256 of the name, so one name always gives the same bytes.
func Icon(name string) []byte {
	sum := sha256.Sum256([]byte(name))
	fg := color.NRGBA{R: 40 + sum[0]%160, G: 40 + sum[1]%160, B: 40 + sum[2]%160, A: 255}
	bg := color.NRGBA{R: 240, G: 240, B: 240, A: 255}
	img := image.NewPaletted(image.Rect(0, 0, IconSize, IconSize), color.Palette{bg, fg})
	const cells, margin = 5, 56
	cell := (IconSize - 2*margin) / cells
	for row := range cells {
		for col := range 3 {
			if sum[3+row*3+col]&1 == 0 {
				continue
			}
			for _, c := range []int{col, cells - 1 - col} {
				for y := margin + row*cell; y < margin+(row+1)*cell; y++ {
					for x := margin + c*cell; x < margin+(c+1)*cell; x++ {
						img.SetColorIndex(x, y, 1)
					}
				}
			}
		}
	}
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&b, img); err != nil {
		panic(err) // encoding an in-memory image into a buffer cannot fail
	}
	return b.Bytes()
}

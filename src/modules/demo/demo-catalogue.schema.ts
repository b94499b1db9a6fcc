import { z } from 'zod';

const text = (max: number) => z.string().trim().max(max);
const mediaFile = z
  .string()
  .regex(/^images\/[a-z0-9][a-z0-9-]*\.(svg|png|jpe?g|webp)$/, 'media files live in images/ with safe names');

export const demoCatalogueSchema = z.object({
  settings: z.object({
    storeName: text(100).min(1),
    tagline: text(300),
    aboutText: text(5000),
    disclaimer: text(2000),
    credits: z.array(z.object({ role: text(100), name: text(100) })).max(20),
    specialOrderUrl: z.url().nullable(),
    contactUrl: z.url().nullable(),
    bannerTitle: text(200).nullable(),
    bannerDescription: text(500).nullable(),
    bannerImage: mediaFile.nullable(),
    bannerActive: z.boolean(),
  }),
  quotes: z.array(z.object({ quote: text(1000).min(1), author: text(200) })).max(200),
  version: z.object({ version: text(50).min(1), environment: text(50).min(1), notes: text(5000).nullable() }),
  products: z
    .array(
      z
        .object({
          id: z.string().regex(/^[a-zA-Z0-9_-]{1,100}$/),
          title: text(200).min(1),
          description: text(5000),
          manufacturer: text(200),
          manufacturerUrl: z.url().nullable(),
          sku: text(100).min(1),
          price: z.string().regex(/^\d+(\.\d+)?$/),
          currency: z.string().regex(/^[a-z]{3}$/),
          sizes: z.array(text(20).min(1)).max(20),
          sizeDetail: z.record(z.string(), z.record(z.string(), z.string())),
          /**
           * A plain name: a colour sharing the product's photos, stock untracked per colour (as the demo had
           * before variants). A mapping: a real variant with its swatch, its own photos (files of `media`), an
           * optional SKU suffix and price.
           */
          colors: z
            .array(
              z.union([
                text(50).min(1),
                z.object({
                  name: text(50).min(1),
                  hex: z.string().regex(/^#[0-9a-f]{6}$/),
                  skuSuffix: text(20).min(1).optional(),
                  price: z
                    .string()
                    .regex(/^\d+(\.\d+)?$/)
                    .optional(),
                  images: z.array(mediaFile).max(20),
                }),
              ]),
            )
            .max(20),
          tags: z.array(text(50).min(1)).max(30),
          pageOrder: z.number().int().min(0),
          /** Units on hand per tracked size; sizes left out are not tracked. */
          stock: z.record(z.string(), z.number().int().min(0)).optional(),
          /** Units on hand per colour (by name) and size. */
          colourStock: z.record(z.string(), z.record(z.string(), z.number().int().min(0))).optional(),
          productLink: z.url().nullable().optional(),
          createdAt: z.iso.datetime(),
          media: z.array(z.object({ file: mediaFile, altText: text(500).nullable() })).max(20),
        })
        .superRefine((p, ctx) => {
          // A colour shows the product's own photos only, and stock is kept for its own colours.
          const files = new Set(p.media.map((m) => m.file));
          for (const [i, c] of p.colors.entries())
            if (typeof c !== 'string')
              for (const file of c.images)
                if (!files.has(file))
                  ctx.addIssue({
                    code: 'custom',
                    path: ['colors', i, 'images'],
                    message: `${file} is not in media`,
                  });
          const names = new Set(p.colors.map((c) => (typeof c === 'string' ? c : c.name)));
          for (const colour of Object.keys(p.colourStock ?? {}))
            if (!names.has(colour))
              ctx.addIssue({
                code: 'custom',
                path: ['colourStock', colour],
                message: 'not a colour of this product',
              });
        }),
    )
    .max(1000),
});

export type DemoCatalogue = z.infer<typeof demoCatalogueSchema>;

// The company's identity (brand/, through the boot data) deep inside the admin console (the
// branding editor's default colour and logo). The layout and the pages get it as a prop: a
// context the entry shared with the pages would be a chunk of its own on every first load.
import { createContext, useContext } from 'react';
import type { PageBrand } from '../../shared/brand.ts';

const BrandContext = createContext<PageBrand | null>(null);

export const BrandProvider = BrandContext.Provider;

export function useBrand(): PageBrand {
  const brand = useContext(BrandContext);
  if (!brand) throw new Error('useBrand() outside <BrandProvider>: the boot data carries the brand');
  return brand;
}

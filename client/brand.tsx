// The company's identity (brand/, through the boot data) for every component that shows it:
// the navbar's logo, the footer's and the contact page's details.
import { createContext, useContext } from 'react';
import type { PageBrand } from '../shared/brand.ts';

const BrandContext = createContext<PageBrand | null>(null);

export const BrandProvider = BrandContext.Provider;

export function useBrand(): PageBrand {
  const brand = useContext(BrandContext);
  if (!brand) throw new Error('useBrand() outside <BrandProvider>: the boot data carries the brand');
  return brand;
}

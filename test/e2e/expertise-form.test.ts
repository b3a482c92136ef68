// The expert's profile form in the design system's form styles, in both themes: the
// groups of choices are fieldsets with a field's look (no box of their own, the legend a bold
// label, each choice's words not bold beside its box), the inputs in the theme's colours.
import { describe, expect, it } from 'vitest';
import { setupSite, waitForHydration } from './fixture.ts';
import { ROLE_USERS } from './helpers.ts';

const site = setupSite({ users: ROLE_USERS });
const EXPERT = ROLE_USERS.find((user) => user.role === 'CONS')!.userName;

describe('the expertise form uses the form styles', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`in the ${colorScheme} theme`, async () => {
      const page = await site.signIn(EXPERT, { colorScheme });
      await page.goto('/en/expert');
      await waitForHydration(page);
      const form = page.locator('section.expertise form');
      await form.waitFor();
      const look = await form.evaluate((el) => {
        const css = (node: Element | null) => getComputedStyle(node!);
        const fieldset = el.querySelector('fieldset')!;
        const choice = fieldset.querySelector('label.field-check')!;
        const textarea = el.querySelector('textarea')!;
        const body = css(document.body);
        return {
          fieldsetBorder: css(fieldset).borderTopWidth,
          fieldsetPadding: css(fieldset).paddingLeft,
          legendWeight: css(fieldset.querySelector('legend')).fontWeight,
          choiceDisplay: css(choice).display,
          choiceWeight: css(choice).fontWeight,
          labelWeight: css(el.querySelector('label[for="expertise-bio"]')).fontWeight,
          textareaBackground: css(textarea).backgroundColor,
          textareaColor: css(textarea).color,
          bodyColor: body.color,
          formDisplay: css(el).display,
        };
      });
      expect(look.fieldsetBorder).toBe('0px');
      expect(look.fieldsetPadding).toBe('0px');
      expect(look.legendWeight).toBe('600');
      expect(look.labelWeight).toBe('600');
      expect(look.choiceDisplay).toBe('grid');
      expect(look.choiceWeight).toBe('400');
      expect(look.formDisplay).toBe('grid');
      // The fields follow the theme: text in the page's colour, on a surface that is not white in the dark.
      expect(look.textareaColor).toBe(look.bodyColor);
      if (colorScheme === 'dark') expect(look.textareaBackground).not.toBe('rgb(255, 255, 255)');
      await page.locator('section.expertise').screenshot({ path: `/tmp/shots-expertise/${colorScheme}.png` });
    });
  }
});

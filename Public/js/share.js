// Copy buttons (`data-copy` names what to copy): the share panel's deck link and presenter links,
// a new API token.
// The button is hidden without JavaScript, where the text can be selected by hand.

/** Copies `text`; falls back to selecting `input` and `execCommand` where the Clipboard API is
 *  missing (http:// on a LAN address is not a secure context). Resolves to whether it worked. */
async function copyText(text, input) {
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch (error) {
      // Denied: fall through to the selection fallback.
    }
  }
  if (typeof input.select !== 'function') {
    return false;
  }
  input.focus();
  input.select();
  return document.execCommand('copy');
}

function createCopyButton(root, button) {
  const input = root.querySelector(button.dataset.copy);
  const status = root.querySelector('.copy-status');
  button.hidden = false;
  button.addEventListener('click', async () => {
    const text = 'value' in input ? input.value : input.textContent;
    const copied = await copyText(text, input);
    const done = button.dataset.copied || 'Link copied: paste it into a message.';
    status.textContent = copied ? done : 'Select it and copy it by hand.';
    button.textContent = copied ? 'Copied ✓' : 'Copy';
    status.classList.toggle('ok', copied);
  });
}

document.querySelectorAll('[data-copy]').forEach((button) => createCopyButton(document, button));

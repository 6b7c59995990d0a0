// Share panel: the Copy button copies the deck's link (the button is hidden without JavaScript,
// where the read-only field can be selected by hand).

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
  input.focus();
  input.select();
  return document.execCommand('copy');
}

function createSharePanel(root) {
  const button = root.querySelector('[data-copy]');
  if (!button) {
    return;
  }
  const input = root.querySelector(button.dataset.copy);
  const status = root.querySelector('.copy-status');
  button.hidden = false;
  button.addEventListener('click', async () => {
    const copied = await copyText(input.value, input);
    status.textContent = copied ? 'Link copied: paste it into a message.' : 'Select the link and copy it.';
    button.textContent = copied ? 'Copied ✓' : 'Copy';
    status.classList.toggle('ok', copied);
  });
}

createSharePanel(document);

-- Neovim's built-in LSP client against `trainlint lsp`, headless. Run by the Go test
-- TestRealClients as
--
--   TRAINLINT_BIN=... TRAINLINT_ROOT=... TRAINLINT_FILE=... nvim --headless --clean -c 'luafile client.lua'
--
-- It opens TRAINLINT_FILE (a copy of cmd/trainlint/examples/hf-sft.yaml), starts the server with
-- vim.lsp.start_client, waits for the findings, puts the cursor on TL202 and runs the user's own
-- command, vim.lsp.buf.code_action(), choosing the quick fix in the menu (vim.ui.select, which
-- is what a user's picker implements), and waits until the finding is gone. Neovim exits 0 when
-- every check passed, 1 otherwise. Written for Neovim 0.7 (Debian 12) and later.

local bin = os.getenv('TRAINLINT_BIN')
local root = os.getenv('TRAINLINT_ROOT')
local file = os.getenv('TRAINLINT_FILE')

local function log(msg)
  io.stdout:write(msg .. '\n')
end

local function finish(ok, msg)
  log((ok and 'ok   ' or 'FAIL ') .. msg)
  if ok then
    vim.cmd('qall!')
  else
    vim.cmd('cquit 1')
  end
end

local function check(ok, msg)
  if not ok then
    finish(false, msg)
    error('stop') -- not reached: cquit exits
  end
  log('ok   ' .. msg)
end

local function find(code)
  for _, d in ipairs(vim.diagnostic.get(0)) do
    if d.code == code then
      return d
    end
  end
  return nil
end

local ok, err = pcall(function()
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()
  local client_id = vim.lsp.start_client({
    name = 'trainlint',
    cmd = { bin, 'lsp' },
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = 'workspace' } },
  })
  check(client_id ~= nil, 'vim.lsp.start_client started trainlint lsp')
  vim.lsp.buf_attach_client(bufnr, client_id)

  check(vim.wait(15000, function() return find('TL202') ~= nil end, 50), 'TL202 published on open')
  local d = find('TL202')
  check(d.severity == vim.diagnostic.severity.WARN, 'TL202 is a warning')
  check(d.lnum == 8, 'TL202 is on line 9 (got ' .. tostring(d.lnum + 1) .. ')')
  local lsp = d.user_data and d.user_data.lsp or {}
  check(lsp.codeDescription and lsp.codeDescription.href:find('/rules/eval%-batch%-smaller%-than%-train/') ~= nil,
    'TL202 links its rule page')

  -- The user's code-action command at the finding; the picker chooses the rule's fix.
  vim.api.nvim_win_set_cursor(0, { d.lnum + 1, d.col })
  local offered = {}
  vim.ui.select = function(items, opts, on_choice)
    local pick
    for i, item in ipairs(items) do
      local action = item[2]
      table.insert(offered, action.title)
      if action.title:find('^set per_device_eval_batch_size') then
        pick = i
      end
    end
    on_choice(pick and items[pick] or nil, pick)
  end
  vim.lsp.buf.code_action()
  check(vim.wait(10000, function() return #offered > 0 end, 50), 'code actions offered: ' .. table.concat(offered, ' | '))
  local has_suppress = false
  for _, t in ipairs(offered) do
    if t:find('^suppress eval%-batch%-smaller%-than%-train') then has_suppress = true end
  end
  check(has_suppress, 'a suppress-with-reason action is among them')

  check(vim.wait(10000, function()
    return vim.api.nvim_buf_get_lines(bufnr, 8, 9, false)[1] == 'per_device_eval_batch_size: 16'
  end, 50), 'the quick fix edited the buffer')
  -- Neovim sends the edit to the server (didChange); the finding goes as the user types.
  check(vim.wait(15000, function() return find('TL202') == nil and find('TL101') ~= nil end, 50),
    'TL202 gone after the fix, the other findings still there')

  -- Typing: delete the 6 of 16 with a normal-mode command; the finding comes back for "1".
  vim.cmd('normal! 9G$x')
  check(vim.api.nvim_buf_get_lines(bufnr, 8, 9, false)[1] == 'per_device_eval_batch_size: 1', 'typed over the value')
  check(vim.wait(15000, function()
    local again = find('TL202')
    return again ~= nil and again.message:find('eval batch 1 ', 1, true) ~= nil
  end, 50), 'TL202 is back as typed, for the new value')
  vim.lsp.stop_client(client_id)
  vim.wait(5000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 50)
end)

if ok then
  finish(true, 'neovim client: all checks passed')
elseif err and not tostring(err):find('stop') then
  finish(false, 'error: ' .. tostring(err))
end

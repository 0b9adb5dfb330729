// The page's words in English and Chinese. The browser's language chooses
// at first; the switch in the header remembers a choice.

const en = {
  'nav.new': 'New game', 'nav.games': 'My games', 'nav.leaderboard': 'Leaderboard', 'nav.me': 'Me',
  guest: 'Guest', black: 'Black', white: 'White', you: 'you', toMove: 'to move',
  'home.title': 'Five in a row', 'home.lead': 'Gomoku, renju, tic-tac-toe: play the computer, a friend on this device, or a friend online.',
  'home.as': 'Playing as {0}.', 'name.placeholder': 'Your name (optional)',
  'field.name': 'Your name', 'field.rules': 'Rules', 'field.size': 'Board size', 'field.width': 'Width', 'field.height': 'Height',
  'field.k': 'In a row to win', 'field.opening': 'Opening rule', 'field.opponent': 'Opponent', 'field.level': 'Computer level',
  'field.colour': 'You play', 'field.clock': 'Clock',
  'rules.freestyle': 'Freestyle gomoku', 'rules.standard': 'Exactly five', 'rules.renju': 'Renju', 'rules.tictactoe': 'Tic-tac-toe', 'rules.custom': 'k in a row',
  'opening.free': 'Free', 'opening.rif': 'RIF (swap after 3)', 'opening.yamaguchi': 'Yamaguchi', 'opening.swap2': 'Swap2', 'opening.swap1': 'Swap',
  'opponent.computer': 'The computer', 'opponent.local': 'A friend on this device', 'opponent.online': 'A friend online',
  'opponent.anyone': 'Anyone online', 'field.rated': 'Rated', 'field.fallback': 'If nobody comes',
  'fallback.never': 'Keep waiting', 'fallback.after': 'Play the computer after {0} s',
  'seek.title': 'Finding you an opponent…', 'seek.waited': 'Waiting for {0} s.', 'seek.cancel': 'Stop looking',
  'seek.expired': 'Nobody came in time: try again.',
  'level.beginner': 'beginner', 'level.intermediate': 'intermediate', 'level.advanced': 'advanced', 'level.expert': 'expert',
  'colour.black': 'Black (moves first)', 'colour.white': 'White', 'colour.random': 'Either, at random',
  'clock.none': 'None', 'clock.minutes': '{0} min each', start: 'Start', starting: 'Starting…',
  'seat.open': 'Open seat', 'seat.computer': 'Computer ({0})',
  'status.thinking': 'The computer is thinking…', 'status.waiting': 'Waiting for an opponent', 'status.invited': '{0} has not accepted yet',
  'status.you': 'You', 'status.opponent': 'Your opponent', 'status.toMove': '{0} to move ({1})',
  'status.in_progress': 'in progress', 'status.finished': 'finished',
  'phase.place': '{0}: place the opening stones ({1} to go)', 'phase.declare': '{0}: declare how many fifth moves black offers',
  'phase.swap': '{0}: swap colours or keep them', 'phase.swap_or_place': '{0}: take black, take white, or place two more stones',
  'phase.offer': '{0}: offer {2} fifth moves', 'phase.choose': '{0}: choose one of the offered fifth moves',
  'result.win': '{0} wins: {1}', 'result.draw': 'Draw: {0}', 'result.declined': 'The invitation was declined', 'result.cancelled': 'The game was called off',
  'result.short.win': '{0} won', 'result.short.draw': 'draw',
  'reason.five': 'five in a row', 'reason.forbidden': 'black played a forbidden point', 'reason.resign': 'the other side resigned',
  'reason.board_full': 'the board is full', 'reason.timeout': 'the other side ran out of time', 'reason.abandoned': 'the other side walked away',
  'reason.draw_agreed': 'agreed', 'reason.declined': 'declined', 'reason.cancelled': 'cancelled',
  'msg.notStarted': 'The game has not started yet.', 'msg.over': 'The game is over.', 'msg.notYourTurn': 'It is not your turn.',
  'msg.spectator': 'You are watching this game.', 'msg.chooseOffered': 'Choose one of the marked fifth moves.',
  'msg.decideFirst': 'Decide on the opening first (the buttons beside the board).', 'msg.occupied': '{0} is taken.',
  'prompt.invitation': 'You are invited to this game.', 'prompt.takeback': 'Your opponent asks to take back the last move.',
  'prompt.draw': 'Your opponent offers a draw.', 'prompt.rematch': 'Your opponent proposes a rematch.',
  'prompt.waiting.takeback': 'Takeback asked: waiting for your opponent.', 'prompt.waiting.draw': 'Draw offered: waiting for your opponent.',
  'prompt.waiting.rematch': 'Rematch proposed: waiting for your opponent.',
  accept: 'Accept', decline: 'Decline', clear: 'Clear', more: 'More', left: '{0} left',
  'opening.swapQuestion': 'Swap colours with your opponent, or keep them?', 'opening.swap': 'Swap', 'opening.keep': 'Keep',
  'opening.swap2Question': 'Take black, take white, or place two more stones (white, then black) on the board.',
  'opening.takeBlack': 'Take black', 'opening.takeWhite': 'Take white', 'opening.placeTwo': 'Stones placed: {0} of 2.',
  'opening.declareQuestion': 'How many fifth moves will black offer?', 'opening.declare': 'Declare',
  'opening.offerHelp': 'Click {0} points for the fifth move ({1} chosen), no two alike by symmetry.', 'opening.offer': 'Offer',
  'opening.chooseHelp': 'Click the offered fifth move you want black to play.',
  'share.send': 'Send this link to your friend:', 'share.copy': 'Copy', 'share.copied': 'Link copied.', 'share.cancel': 'Call the game off',
  'share.join': 'This game waits for someone to play {0}.', 'share.joinButton': 'Play {0}',
  spectating: 'You are watching: the board follows the game live.',
  'action.undo': 'Undo', 'action.redo': 'Redo', 'action.aiMove': 'Computer, play', 'action.hint': 'Hint', 'action.resign': 'Resign', 'action.resignSure': 'Really resign?',
  'action.takeback': 'Ask takeback', 'action.draw': 'Offer draw', 'action.claim': 'Claim the win', 'action.rematch': 'Rematch',
  'action.toRematch': 'Go to the rematch', moveNumbers: 'Move numbers',
  'hint.title': 'The computer ({0}) suggests:', 'hint.level': 'Hints from the level', 'hint.forced': 'A forced win in {0} plies.', moves: '{0} moves', kInRow: '{0} in a row',
  'game.missing': 'No such game', 'error.network': 'The server cannot be reached: check the connection and try again.',
  'list.empty': 'Nothing yet.', 'list.noPlayer': 'Play a game first: your player is made then and kept in this browser.',
  'card.name': 'Player', 'card.score': 'Score', 'card.wins': 'Wins', 'card.losses': 'Losses', 'card.draws': 'Draws',
  'card.abandoned': 'Abandoned', 'card.games': 'Games', 'card.kept': 'This browser keeps your player:',
  'card.showToken': 'Show my token', 'card.forget': 'Forget me on this browser', 'card.forgetSure': 'Really forget? Keep your token first.',
  'card.signIn': 'Use this token', 'card.signInHelp': 'Played elsewhere? Paste your token to play as that player here.',
  'keep.title': 'Keep or show this game:', 'keep.picture': 'Picture', 'keep.animation': 'Animation',
  'load.title': 'Load a game', 'load.help': 'An SGF, PSQ or move-list file: every move is replayed, and you can step through it with undo and redo, or play on.',
  'load.button': 'Load', 'load.file': 'Record file', 'load.against': 'Play on against',
  'board.label': 'Board, {0} by {1}', 'board.cursor': 'Board: {0}, {1}', 'board.empty': 'empty',
  'forbidden.double_three': 'forbidden (double three)', 'forbidden.double_four': 'forbidden (double four)', 'forbidden.overline': 'forbidden (overline)',
};

const zh = {
  'nav.new': '新对局', 'nav.games': '我的对局', 'nav.leaderboard': '排行榜', 'nav.me': '我',
  guest: '游客', black: '黑方', white: '白方', you: '你', toMove: '行棋',
  'home.title': '五子棋', 'home.lead': '五子棋、连珠、井字棋：与电脑对弈，与身边的朋友同屏对弈，或与远方的朋友在线对弈。',
  'home.as': '当前玩家：{0}', 'name.placeholder': '你的名字（可不填）',
  'field.name': '名字', 'field.rules': '规则', 'field.size': '棋盘大小', 'field.width': '宽', 'field.height': '高',
  'field.k': '连成几子获胜', 'field.opening': '开局规则', 'field.opponent': '对手', 'field.level': '电脑水平',
  'field.colour': '执子', 'field.clock': '计时',
  'rules.freestyle': '无禁手五子棋', 'rules.standard': '恰好五子', 'rules.renju': '连珠（有禁手）', 'rules.tictactoe': '井字棋', 'rules.custom': 'k 子棋',
  'opening.free': '自由开局', 'opening.rif': 'RIF（三手交换）', 'opening.yamaguchi': '山口规则', 'opening.swap2': 'Swap2', 'opening.swap1': '交换',
  'opponent.computer': '电脑', 'opponent.local': '同屏好友', 'opponent.online': '在线好友',
  'opponent.anyone': '在线匹配对手', 'field.rated': '计入等级分', 'field.fallback': '无人应战时',
  'fallback.never': '继续等待', 'fallback.after': '{0} 秒后与电脑对弈',
  'seek.title': '正在为你寻找对手…', 'seek.waited': '已等待 {0} 秒。', 'seek.cancel': '停止匹配',
  'seek.expired': '暂时无人应战，请再试一次。',
  'level.beginner': '入门', 'level.intermediate': '中级', 'level.advanced': '高级', 'level.expert': '专家',
  'colour.black': '黑棋（先手）', 'colour.white': '白棋', 'colour.random': '随机',
  'clock.none': '不计时', 'clock.minutes': '每方 {0} 分钟', start: '开始', starting: '正在开始…',
  'seat.open': '空位', 'seat.computer': '电脑（{0}）',
  'status.thinking': '电脑思考中…', 'status.waiting': '等待对手加入', 'status.invited': '{0}尚未接受邀请',
  'status.you': '你', 'status.opponent': '对手', 'status.toMove': '轮到{0}（{1}）',
  'status.in_progress': '进行中', 'status.finished': '已结束',
  'phase.place': '{0}：摆放开局棋子（还剩 {1} 子）', 'phase.declare': '{0}：声明黑方打点数',
  'phase.swap': '{0}：选择交换或不交换', 'phase.swap_or_place': '{0}：执黑、执白，或再摆两子',
  'phase.offer': '{0}：提供 {2} 个第五手打点', 'phase.choose': '{0}：从打点中选择一个第五手',
  'result.win': '{0}获胜：{1}', 'result.draw': '和棋：{0}', 'result.declined': '邀请被拒绝', 'result.cancelled': '对局已取消',
  'result.short.win': '{0}胜', 'result.short.draw': '和棋',
  'reason.five': '连成五子', 'reason.forbidden': '黑方下了禁手', 'reason.resign': '对方认输',
  'reason.board_full': '棋盘已满', 'reason.timeout': '对方超时', 'reason.abandoned': '对方离开了对局',
  'reason.draw_agreed': '双方同意', 'reason.declined': '已拒绝', 'reason.cancelled': '已取消',
  'msg.notStarted': '对局尚未开始。', 'msg.over': '对局已结束。', 'msg.notYourTurn': '还没轮到你。',
  'msg.spectator': '你正在观战。', 'msg.chooseOffered': '请从标记的打点中选择一个。',
  'msg.decideFirst': '请先完成开局选择（棋盘旁的按钮）。', 'msg.occupied': '{0} 已有棋子。',
  'prompt.invitation': '你被邀请参加这局对局。', 'prompt.takeback': '对手请求悔棋。',
  'prompt.draw': '对手提议和棋。', 'prompt.rematch': '对手提议再来一局。',
  'prompt.waiting.takeback': '已请求悔棋，等待对手回应。', 'prompt.waiting.draw': '已提议和棋，等待对手回应。',
  'prompt.waiting.rematch': '已提议再来一局，等待对手回应。',
  accept: '同意', decline: '拒绝', clear: '清除', more: '更多', left: '剩 {0} 次',
  'opening.swapQuestion': '与对手交换执子颜色吗？', 'opening.swap': '交换', 'opening.keep': '不交换',
  'opening.swap2Question': '执黑、执白，或在棋盘上再摆两子（先白后黑）。',
  'opening.takeBlack': '执黑', 'opening.takeWhite': '执白', 'opening.placeTwo': '已摆 {0}/2 子。',
  'opening.declareQuestion': '黑方将提供几个第五手打点？', 'opening.declare': '声明',
  'opening.offerHelp': '点击 {0} 个第五手打点（已选 {1} 个），不可对称相同。', 'opening.offer': '提交打点',
  'opening.chooseHelp': '点击你要黑方下的那个打点。',
  'share.send': '把这个链接发给朋友：', 'share.copy': '复制', 'share.copied': '链接已复制。', 'share.cancel': '取消对局',
  'share.join': '这局对局在等人执{0}。', 'share.joinButton': '执{0}加入',
  spectating: '你正在观战：棋盘实时更新。',
  'action.undo': '悔棋', 'action.redo': '重做', 'action.aiMove': '电脑走棋', 'action.hint': '提示', 'action.resign': '认输', 'action.resignSure': '确定认输？',
  'action.takeback': '请求悔棋', 'action.draw': '提议和棋', 'action.claim': '判对方离场', 'action.rematch': '再来一局',
  'action.toRematch': '前往新对局', moveNumbers: '显示手数',
  'hint.title': '电脑（{0}）建议：', 'hint.level': '提示所用的电脑水平', 'hint.forced': '{0} 手内必胜。', moves: '{0} 手', kInRow: '{0} 子连线',
  'game.missing': '找不到这局对局', 'error.network': '无法连接服务器：请检查网络后重试。',
  'list.empty': '暂无。', 'list.noPlayer': '先下一局吧：你的玩家会在那时创建并保存在此浏览器中。',
  'card.name': '玩家', 'card.score': '积分', 'card.wins': '胜', 'card.losses': '负', 'card.draws': '和',
  'card.abandoned': '弃局', 'card.games': '对局数', 'card.kept': '此浏览器保存着你的玩家：',
  'card.showToken': '显示我的令牌', 'card.forget': '在此浏览器上忘记我', 'card.forgetSure': '确定忘记？请先保存令牌。',
  'card.signIn': '使用此令牌', 'card.signInHelp': '在别处下过棋？粘贴你的令牌即可在这里继续以该玩家身份下棋。',
  'keep.title': '保存或分享这局棋：', 'keep.picture': '图片', 'keep.animation': '动画',
  'load.title': '载入棋谱', 'load.help': 'SGF、PSQ 或着法列表文件：逐手重放，可用悔棋与重做逐步查看，也可继续对弈。',
  'load.button': '载入', 'load.file': '棋谱文件', 'load.against': '继续对弈的对手',
  'board.label': '棋盘，{0}×{1}', 'board.cursor': '棋盘：{0}，{1}', 'board.empty': '空',
  'forbidden.double_three': '禁手（三三）', 'forbidden.double_four': '禁手（四四）', 'forbidden.overline': '禁手（长连）',
};

const dictionaries = { en, zh };
let current = pick();

function pick() {
  const saved = localStorage.getItem('gobang.lang');
  if (saved && dictionaries[saved]) return saved;
  return (navigator.languages || [navigator.language || 'en']).some((l) => /^zh\b/i.test(l)) ? 'zh' : 'en';
}

export function lang() { return current; }

export function setLang(code) {
  current = dictionaries[code] ? code : 'en';
  localStorage.setItem('gobang.lang', current);
}

/** The text for `key` in the current language, `{0}`… filled from `args`. */
export function t(key, ...args) {
  const text = dictionaries[current][key] ?? en[key] ?? key;
  return text.replace(/\{(\d)\}/g, (_, i) => (args[i] ?? ''));
}

/** Translates the fixed parts of the page (`data-i18n`). */
export function applyStatic() {
  document.documentElement.lang = current === 'zh' ? 'zh-CN' : 'en';
  for (const e of document.querySelectorAll('[data-i18n]')) e.textContent = t(e.dataset.i18n);
  const button = document.getElementById('lang');
  if (button) {
    button.textContent = current === 'zh' ? 'English' : '中文';
    button.setAttribute('aria-label', current === 'zh' ? 'Switch to English' : '切换到中文');
  }
}
